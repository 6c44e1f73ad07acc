/**
 * A modal dialog built on the native `<dialog>` element and `showModal()`.
 *
 * The platform gives us the top layer, inertness of the rest of the page (so assistive technology and
 * pointer/keyboard focus cannot reach it), the Escape key (through the `cancel` event) and the
 * `::backdrop`. Small hooks add what it lacks: dismissal by a click outside, a scroll lock on <html>,
 * focus returned to the trigger, and a Tab / Shift+Tab cycle that wraps at both ends instead of
 * escaping to the browser's own UI.
 */
import {
	createContext,
	useCallback,
	useContext,
	useEffect,
	useId,
	useLayoutEffect,
	useMemo,
	useRef,
	useState,
	type ButtonHTMLAttributes,
	type HTMLAttributes,
	type ReactNode,
	type RefObject,
} from "react";

interface DialogContextValue {
	open: boolean;
	setOpen: (open: boolean) => void;
	titleId: string;
	descriptionId: string;
	/** Whether a <Dialog.Description> is rendered: only then does the dialog name it in `aria-describedby`. */
	described: boolean;
	setDescribed: (described: boolean) => void;
	triggerRef: RefObject<HTMLButtonElement | null>;
}

const DialogContext = createContext<DialogContextValue | null>(null);

function useDialogContext(part: string): DialogContextValue {
	const context = useContext(DialogContext);
	if (!context) throw new Error(`<Dialog.${part}> must be used inside <Dialog.Root>`);
	return context;
}

export interface DialogRootProps {
	children: ReactNode;
	/** Controlled open state; leave undefined for an uncontrolled dialog. */
	open?: boolean;
	defaultOpen?: boolean;
	onOpenChange?: (open: boolean) => void;
}

function Root({ children, open: controlled, defaultOpen = false, onOpenChange }: DialogRootProps) {
	const [uncontrolled, setUncontrolled] = useState(defaultOpen);
	const open = controlled ?? uncontrolled;
	const triggerRef = useRef<HTMLButtonElement | null>(null);
	const titleId = useId();
	const descriptionId = useId();
	const [described, setDescribed] = useState(false);
	const setOpen = useCallback(
		(next: boolean) => {
			if (controlled === undefined) setUncontrolled(next);
			onOpenChange?.(next);
		},
		[controlled, onOpenChange],
	);
	const value = useMemo(
		() => ({ open, setOpen, titleId, descriptionId, described, setDescribed, triggerRef }),
		[open, setOpen, titleId, descriptionId, described],
	);
	return <DialogContext.Provider value={value}>{children}</DialogContext.Provider>;
}

function Trigger({ children, onClick, className, ...rest }: ButtonHTMLAttributes<HTMLButtonElement>) {
	const { open, setOpen, triggerRef } = useDialogContext("Trigger");
	return (
		<button
			type="button"
			{...rest}
			className={className ?? "btn"}
			ref={triggerRef}
			aria-haspopup="dialog"
			aria-expanded={open}
			data-state={open ? "open" : "closed"}
			onClick={(event) => {
				onClick?.(event);
				if (!event.defaultPrevented) setOpen(true);
			}}
		>
			{children}
		</button>
	);
}

const TABBABLE = [
	"a[href]",
	"area[href]",
	"button:not([disabled])",
	"input:not([disabled]):not([type=hidden])",
	"select:not([disabled])",
	"textarea:not([disabled])",
	"iframe",
	"audio[controls]",
	"video[controls]",
	"summary",
	"[contenteditable]:not([contenteditable=false])",
	"[tabindex]",
].join(",");

/** The elements that Tab visits inside `root`, in order (positive tabindex is not supported on purpose). */
export function tabbableElements(root: HTMLElement): HTMLElement[] {
	return Array.from(root.querySelectorAll<HTMLElement>(TABBABLE)).filter((element) => {
		if (element.tabIndex < 0) return false;
		if (element.closest("[inert]")) return false;
		if (element.hidden || element.closest("[hidden]")) return false;
		// Skip elements that are not rendered (display: none, closed <details>), where layout is known.
		if (typeof element.checkVisibility === "function" && !element.checkVisibility()) return false;
		return true;
	});
}

let scrollLocks = 0;

/** Locks page scrolling while at least one dialog is open (nested dialogs share the lock). */
function useScrollLock(active: boolean): void {
	useEffect(() => {
		if (!active) return;
		const html = document.documentElement;
		scrollLocks++;
		html.classList.add("scroll-locked");
		return () => {
			scrollLocks--;
			if (scrollLocks === 0) html.classList.remove("scroll-locked");
		};
	}, [active]);
}

/** Closes when a press both starts and ends on the backdrop (so a text selection dragged outside does not). */
function useClickOutside(
	dialogRef: RefObject<HTMLDialogElement | null>,
	active: boolean,
	onOutside: () => void,
) {
	useEffect(() => {
		const dialog = dialogRef.current;
		if (!dialog || !active) return;
		let pressStartedOutside = false;
		const isOutside = (event: MouseEvent | PointerEvent): boolean => {
			// With showModal() a click on the ::backdrop targets the <dialog> itself; the content sits in a
			// child that fills the box, so a target of the dialog element means the backdrop. The geometry
			// check covers the dialog's own padding, if a style ever adds some.
			if (event.target !== dialog) return false;
			const rect = dialog.getBoundingClientRect();
			if (rect.width === 0 && rect.height === 0) return true;
			const inside =
				event.clientX >= rect.left &&
				event.clientX <= rect.right &&
				event.clientY >= rect.top &&
				event.clientY <= rect.bottom;
			return !inside;
		};
		const onPointerDown = (event: PointerEvent) => {
			pressStartedOutside = isOutside(event);
		};
		const onClick = (event: MouseEvent) => {
			if (pressStartedOutside && isOutside(event)) onOutside();
			pressStartedOutside = false;
		};
		dialog.addEventListener("pointerdown", onPointerDown);
		dialog.addEventListener("click", onClick);
		return () => {
			dialog.removeEventListener("pointerdown", onPointerDown);
			dialog.removeEventListener("click", onClick);
		};
	}, [dialogRef, active, onOutside]);
}

/** Keeps Tab and Shift+Tab inside the dialog, wrapping at the ends. */
function useFocusCycle(dialogRef: RefObject<HTMLDialogElement | null>, active: boolean) {
	useEffect(() => {
		const dialog = dialogRef.current;
		if (!dialog || !active) return;
		const onKeyDown = (event: KeyboardEvent) => {
			if (event.key !== "Tab" || event.altKey || event.ctrlKey || event.metaKey) return;
			const items = tabbableElements(dialog);
			const first = items[0];
			const last = items[items.length - 1];
			if (!first || !last) {
				event.preventDefault();
				dialog.focus();
				return;
			}
			const current = document.activeElement;
			const outside = !(current instanceof HTMLElement) || !dialog.contains(current) || current === dialog;
			if (event.shiftKey && (current === first || outside)) {
				event.preventDefault();
				last.focus();
			} else if (!event.shiftKey && (current === last || outside)) {
				event.preventDefault();
				first.focus();
			}
		};
		dialog.addEventListener("keydown", onKeyDown);
		return () => dialog.removeEventListener("keydown", onKeyDown);
	}, [dialogRef, active]);
}

export interface DialogContentProps extends HTMLAttributes<HTMLDialogElement> {
	children: ReactNode;
	/** Render the children even while closed (default: only while open). */
	keepMounted?: boolean;
}

function Content({ children, className, keepMounted = false, ...rest }: DialogContentProps) {
	const { open, setOpen, titleId, descriptionId, described, triggerRef } = useDialogContext("Content");
	const dialogRef = useRef<HTMLDialogElement | null>(null);
	// Set while we close the element ourselves, so its `close` event is not taken for an outside close.
	const closingInternally = useRef(false);
	const close = useCallback(() => setOpen(false), [setOpen]);

	useLayoutEffect(() => {
		const dialog = dialogRef.current;
		if (!dialog) return;
		if (open && !dialog.open) {
			const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
			// The trigger as it is when the dialog closes (it may have re-rendered since it opened).
			const trigger = triggerRef;
			dialog.showModal();
			const preferred = dialog.querySelector<HTMLElement>("[autofocus], [data-autofocus]");
			(preferred ?? tabbableElements(dialog)[0] ?? dialog).focus();
			return () => {
				if (dialog.open) {
					closingInternally.current = true;
					dialog.close();
				}
				// Return focus to the trigger (or whatever opened the dialog when that is gone).
				const target = trigger.current ?? opener;
				if (target && target.isConnected) target.focus();
			};
		}
		return undefined;
	}, [open, triggerRef]);

	useEffect(() => {
		const dialog = dialogRef.current;
		if (!dialog) return;
		// Escape fires `cancel`; let React state drive the closing so every path runs the same cleanup.
		const onCancel = (event: Event) => {
			event.preventDefault();
			close();
		};
		// A `close` from elsewhere (a form with method="dialog", the browser) keeps the state in step.
		const onClose = () => {
			if (closingInternally.current) {
				closingInternally.current = false;
				return;
			}
			if (open) close();
		};
		dialog.addEventListener("cancel", onCancel);
		dialog.addEventListener("close", onClose);
		return () => {
			dialog.removeEventListener("cancel", onCancel);
			dialog.removeEventListener("close", onClose);
		};
	}, [open, close]);

	useScrollLock(open);
	useClickOutside(dialogRef, open, close);
	useFocusCycle(dialogRef, open);

	return (
		<dialog
			{...rest}
			ref={dialogRef}
			className={`dialog${className ? ` ${className}` : ""}`}
			aria-labelledby={titleId}
			aria-describedby={described ? descriptionId : undefined}
			aria-modal="true"
			data-state={open ? "open" : "closed"}
			tabIndex={-1}
		>
			<div className="dialog-panel">{open || keepMounted ? children : null}</div>
		</dialog>
	);
}

function Title({ children, className, ...rest }: HTMLAttributes<HTMLHeadingElement>) {
	const { titleId } = useDialogContext("Title");
	return (
		<h2 {...rest} id={titleId} className={className ?? "dialog-title"}>
			{children}
		</h2>
	);
}

function Description({ children, ...rest }: HTMLAttributes<HTMLParagraphElement>) {
	const { descriptionId, setDescribed } = useDialogContext("Description");
	useLayoutEffect(() => {
		setDescribed(true);
		return () => setDescribed(false);
	}, [setDescribed]);
	return (
		<p {...rest} id={descriptionId}>
			{children}
		</p>
	);
}

function Close({ children, onClick, className, ...rest }: ButtonHTMLAttributes<HTMLButtonElement>) {
	const { setOpen } = useDialogContext("Close");
	return (
		<button
			type="button"
			{...rest}
			className={className ?? "btn"}
			onClick={(event) => {
				onClick?.(event);
				if (!event.defaultPrevented) setOpen(false);
			}}
		>
			{children}
		</button>
	);
}

export const Dialog = { Root, Trigger, Content, Title, Description, Close };
