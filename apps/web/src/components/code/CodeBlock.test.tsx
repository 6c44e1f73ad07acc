// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import CodeBlock from "./CodeBlock";
import { Code } from "./index";

afterEach(() => {
	cleanup();
	vi.useRealTimers();
});

describe("CodeBlock", () => {
	it("highlights tokens with classes and keeps the text intact", () => {
		const code = 'import os  # comment\nx = "s"';
		const { container } = render(<CodeBlock code={code} language="python" />);
		expect(container.querySelector("code")?.textContent).toBe(code);
		expect(container.querySelector(".tok-keyword")?.textContent).toBe("import");
		expect(container.querySelector(".tok-comment")?.textContent).toBe("# comment");
		expect(container.querySelector(".tok-string")?.textContent).toBe('"s"');
		expect(screen.getByText("Python")).toBeTruthy();
		// The scrollable code is reachable by keyboard and named.
		expect(container.querySelector("pre")?.getAttribute("tabindex")).toBe("0");
		expect(container.querySelector("pre")?.getAttribute("aria-label")).toBe("Python code");
	});

	it("copies the code and says so, then resets", async () => {
		vi.useFakeTimers();
		const writeText = vi.fn(async () => undefined);
		Object.defineProperty(navigator, "clipboard", { configurable: true, value: { writeText } });
		render(<CodeBlock code="echo hi" language="sh" />);
		await act(async () => {
			fireEvent.click(screen.getByRole("button", { name: /Copy/ }));
		});
		expect(writeText).toHaveBeenCalledWith("echo hi");
		expect(screen.getByRole("button", { name: /Copied/ }).getAttribute("data-state")).toBe("copied");
		expect(screen.getByRole("status").textContent).toBe("Copied to the clipboard");
		act(() => {
			vi.advanceTimersByTime(2100);
		});
		expect(screen.getByRole("button", { name: /Copy/ }).getAttribute("data-state")).toBe("idle");
	});

	it("reports a failed copy", async () => {
		Object.defineProperty(navigator, "clipboard", {
			configurable: true,
			value: { writeText: async () => Promise.reject(new Error("denied")) },
		});
		render(<CodeBlock code="x" language="sh" />);
		await act(async () => {
			fireEvent.click(screen.getByRole("button", { name: /Copy/ }));
		});
		expect(screen.getByRole("button", { name: /Copy failed/ })).toBeTruthy();
	});

	it("shows the plain code at once while the highlighter loads", async () => {
		const { container } = render(<Code code="print(1)" language="python" />);
		expect(container.querySelector("code")?.textContent).toBe("print(1)");
		await screen.findByRole("button", { name: /Copy/ });
		expect(container.querySelector(".tok-number")?.textContent).toBe("1");
	});
});
