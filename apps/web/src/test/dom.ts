/**
 * jsdom has no layout and no `HTMLDialogElement.showModal()`. This gives the dialog element the parts of
 * its behaviour our component relies on (open attribute, `close` event), so unit tests exercise our own
 * logic; the real element is covered by the browser tests in e2e/.
 */
export function installDialogPolyfill(): void {
	const proto = window.HTMLDialogElement?.prototype as HTMLDialogElement | undefined;
	if (!proto || typeof proto.showModal === "function") return;
	Object.defineProperty(proto, "showModal", {
		configurable: true,
		value(this: HTMLDialogElement) {
			if (this.open) throw new DOMException("already open", "InvalidStateError");
			this.setAttribute("open", "");
		},
	});
	Object.defineProperty(proto, "close", {
		configurable: true,
		value(this: HTMLDialogElement) {
			if (!this.open) return;
			this.removeAttribute("open");
			this.dispatchEvent(new Event("close"));
		},
	});
}

/** Presses Escape the way a browser does on a modal dialog: a cancelable `cancel` event. */
export function pressEscapeOn(dialog: HTMLDialogElement): boolean {
	return dialog.dispatchEvent(new Event("cancel", { cancelable: true }));
}
