// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { installDialogPolyfill, pressEscapeOn } from "../test/dom";
import { Dialog } from "./Dialog";

beforeAll(installDialogPolyfill);
afterEach(cleanup);

function Example({ onOpenChange }: { onOpenChange?: (open: boolean) => void }) {
	return (
		<>
			<button type="button">Before</button>
			<Dialog.Root onOpenChange={onOpenChange}>
				<Dialog.Trigger>Open</Dialog.Trigger>
				<Dialog.Content>
					<Dialog.Title>Settings</Dialog.Title>
					<button type="button">First</button>
					<a href="#x">Middle</a>
					<Dialog.Close>Last</Dialog.Close>
				</Dialog.Content>
			</Dialog.Root>
		</>
	);
}

function open() {
	fireEvent.click(screen.getByRole("button", { name: "Open" }));
	return document.querySelector("dialog") as HTMLDialogElement;
}

describe("Dialog", () => {
	it("is closed at first, with its state on trigger and content", () => {
		render(<Example />);
		const trigger = screen.getByRole("button", { name: "Open" });
		expect(trigger.getAttribute("data-state")).toBe("closed");
		expect(trigger.getAttribute("aria-expanded")).toBe("false");
		expect(trigger.getAttribute("aria-haspopup")).toBe("dialog");
		const dialog = document.querySelector("dialog") as HTMLDialogElement;
		expect(dialog.open).toBe(false);
		expect(dialog.getAttribute("data-state")).toBe("closed");
		expect(screen.queryByText("Settings")).toBeNull();
	});

	it("opens modal, labelled by its title, with focus on the first control", () => {
		render(<Example />);
		const dialog = open();
		expect(dialog.open).toBe(true);
		expect(dialog.getAttribute("data-state")).toBe("open");
		expect(dialog.getAttribute("aria-modal")).toBe("true");
		expect(screen.getByRole("dialog", { name: "Settings" })).toBe(dialog);
		expect(document.activeElement).toBe(screen.getByRole("button", { name: "First" }));
		expect(screen.getByRole("button", { name: "Open" }).getAttribute("aria-expanded")).toBe("true");
	});

	it("closes on Escape and returns focus to the trigger", () => {
		const onOpenChange = vi.fn();
		render(<Example onOpenChange={onOpenChange} />);
		const dialog = open();
		let notCancelled = true;
		act(() => {
			notCancelled = pressEscapeOn(dialog);
		});
		expect(notCancelled).toBe(false); // the native close is replaced by ours
		expect(dialog.open).toBe(false);
		expect(dialog.getAttribute("data-state")).toBe("closed");
		expect(document.activeElement).toBe(screen.getByRole("button", { name: "Open" }));
		expect(onOpenChange.mock.calls).toEqual([[true], [false]]);
	});

	it("closes on a press that starts and ends on the backdrop, not on one inside", () => {
		render(<Example />);
		const dialog = open();
		const inside = screen.getByRole("button", { name: "First" });
		fireEvent.pointerDown(inside);
		fireEvent.click(inside);
		expect(dialog.open).toBe(true);
		// A drag that starts inside and ends on the backdrop does not dismiss either.
		fireEvent.pointerDown(inside);
		fireEvent.click(dialog);
		expect(dialog.open).toBe(true);
		fireEvent.pointerDown(dialog);
		fireEvent.click(dialog);
		expect(dialog.open).toBe(false);
		expect(document.activeElement).toBe(screen.getByRole("button", { name: "Open" }));
	});

	it("cycles Tab and Shift+Tab inside at both ends", () => {
		render(<Example />);
		open();
		const first = screen.getByRole("button", { name: "First" });
		const last = screen.getByRole("button", { name: "Last" });
		last.focus();
		fireEvent.keyDown(last, { key: "Tab" });
		expect(document.activeElement).toBe(first);
		fireEvent.keyDown(first, { key: "Tab", shiftKey: true });
		expect(document.activeElement).toBe(last);
		// In the middle, Tab is left to the browser.
		const middle = screen.getByRole("link", { name: "Middle" });
		middle.focus();
		const event = new KeyboardEvent("keydown", { key: "Tab", bubbles: true, cancelable: true });
		act(() => {
			middle.dispatchEvent(event);
		});
		expect(event.defaultPrevented).toBe(false);
	});

	it("locks page scroll while open", () => {
		render(<Example />);
		expect(document.documentElement.classList.contains("scroll-locked")).toBe(false);
		open();
		expect(document.documentElement.classList.contains("scroll-locked")).toBe(true);
		fireEvent.click(screen.getByRole("button", { name: "Last" }));
		expect(document.documentElement.classList.contains("scroll-locked")).toBe(false);
	});

	it("a controlled dialog follows its prop", () => {
		const { rerender } = render(
			<Dialog.Root open={false}>
				<Dialog.Content>
					<Dialog.Title>Controlled</Dialog.Title>
				</Dialog.Content>
			</Dialog.Root>,
		);
		const dialog = document.querySelector("dialog") as HTMLDialogElement;
		expect(dialog.open).toBe(false);
		rerender(
			<Dialog.Root open>
				<Dialog.Content>
					<Dialog.Title>Controlled</Dialog.Title>
				</Dialog.Content>
			</Dialog.Root>,
		);
		expect(dialog.open).toBe(true);
		// With nothing focusable inside, the dialog itself takes focus.
		expect(document.activeElement).toBe(dialog);
	});

	it("is described by its description when it has one, and by nothing otherwise", () => {
		render(
			<Dialog.Root defaultOpen>
				<Dialog.Content>
					<Dialog.Title>Delete</Dialog.Title>
					<Dialog.Description>The file goes for good.</Dialog.Description>
				</Dialog.Content>
			</Dialog.Root>,
		);
		const dialog = screen.getByRole("dialog", { name: "Delete" });
		const describedBy = dialog.getAttribute("aria-describedby");
		expect(describedBy).toBeTruthy();
		expect(document.getElementById(describedBy as string)?.textContent).toBe("The file goes for good.");
		cleanup();
		render(<Example />);
		expect(open().hasAttribute("aria-describedby")).toBe(false);
	});
});
