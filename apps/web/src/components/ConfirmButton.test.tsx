// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { useState } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ConfirmButton, ConfirmPrompt } from "./ConfirmButton";

afterEach(cleanup);

const click = (name: string) => fireEvent.click(screen.getByRole("button", { name }));

describe("ConfirmButton", () => {
	it("asks first: Keep goes back without acting, the confirming button acts and closes", () => {
		const onConfirm = vi.fn();
		render(
			<ConfirmButton
				question="Delete the hook for good?"
				confirm="Delete for good"
				cancel="Keep it"
				onConfirm={onConfirm}
			>
				Delete
			</ConfirmButton>,
		);
		click("Delete");
		const confirm = screen.getByRole("button", { name: "Delete for good" });
		expect(document.getElementById(confirm.getAttribute("aria-describedby") ?? "")?.textContent).toBe(
			"Delete the hook for good?",
		);
		// Keyboard users are not sent back to the page's start: the prompt takes focus, and gives it back.
		expect(document.activeElement).toBe(screen.getByRole("button", { name: "Keep it" }));
		click("Keep it");
		expect(onConfirm).not.toHaveBeenCalled();
		expect(document.activeElement).toBe(screen.getByRole("button", { name: "Delete" }));
		click("Delete");
		click("Delete for good");
		expect(onConfirm).toHaveBeenCalledTimes(1);
		expect(screen.getByRole("button", { name: "Delete" })).toBeTruthy();
		expect(screen.queryByRole("button", { name: "Delete for good" })).toBeNull();
	});

	it("waits while busy, and names its first button by `label` when given", () => {
		render(
			<ConfirmButton
				label="Delete alice…"
				busy
				confirm="Delete alice"
				cancel="Keep"
				onConfirm={() => undefined}
			>
				Delete…
			</ConfirmButton>,
		);
		expect((screen.getByRole("button", { name: "Delete alice…" }) as HTMLButtonElement).disabled).toBe(true);
	});
});

describe("ConfirmPrompt", () => {
	function Asking({ outcome }: { outcome: boolean | undefined }) {
		const [asking, setAsking] = useState(true);
		return asking ? (
			<ConfirmPrompt
				variant="panel"
				className="notice"
				question="Hide this comment?"
				confirm="Hide comment"
				cancel="Cancel"
				onConfirm={() => Promise.resolve(outcome)}
				onClose={() => setAsking(false)}
			/>
		) : (
			<p>closed</p>
		);
	}

	it("as a panel, is a group described by its question; it stays open when the action says it failed", async () => {
		render(<Asking outcome={false} />);
		const group = screen.getByRole("group");
		expect(document.getElementById(group.getAttribute("aria-describedby") ?? "")?.textContent).toBe(
			"Hide this comment?",
		);
		await act(async () => click("Hide comment"));
		expect(screen.getByRole("group")).toBeTruthy();
	});

	it("closes once the action has settled otherwise", async () => {
		render(<Asking outcome={undefined} />);
		await act(async () => click("Hide comment"));
		expect(screen.getByText("closed")).toBeTruthy();
	});
});
