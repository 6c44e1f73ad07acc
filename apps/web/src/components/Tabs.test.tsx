// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { nextTabIndex, Tabs } from "./Tabs";

afterEach(cleanup);

const items = [
	{ id: "python", label: "Python", content: <p>python panel</p> },
	{ id: "js", label: "JavaScript", content: <p>js panel</p> },
	{ id: "sh", label: "cURL", content: <p>sh panel</p> },
];

describe("Tabs", () => {
	it("renders the tabs pattern with one tab stop", () => {
		render(<Tabs label="Language" items={items} />);
		expect(screen.getByRole("tablist", { name: "Language" })).toBeTruthy();
		const tabs = screen.getAllByRole("tab");
		expect(tabs.map((tab) => tab.getAttribute("aria-selected"))).toEqual(["true", "false", "false"]);
		expect(tabs.map((tab) => tab.tabIndex)).toEqual([0, -1, -1]);
		const panel = screen.getByRole("tabpanel");
		expect(panel.getAttribute("aria-labelledby")).toBe(tabs[0]?.id);
		expect(tabs[0]?.getAttribute("aria-controls")).toBe(panel.id);
		expect(panel.textContent).toBe("python panel");
	});

	it("arrow keys move focus and selection, wrapping; Home and End jump", () => {
		const onSelect = vi.fn();
		render(<Tabs label="Language" items={items} onSelect={onSelect} />);
		const tab = (name: string) => screen.getByRole("tab", { name });
		tab("Python").focus();
		fireEvent.keyDown(tab("Python"), { key: "ArrowRight" });
		expect(document.activeElement).toBe(tab("JavaScript"));
		expect(tab("JavaScript").getAttribute("aria-selected")).toBe("true");
		expect(tab("JavaScript").tabIndex).toBe(0);
		expect(tab("Python").tabIndex).toBe(-1);
		expect(screen.getByRole("tabpanel").textContent).toBe("js panel");
		fireEvent.keyDown(tab("JavaScript"), { key: "End" });
		expect(document.activeElement).toBe(tab("cURL"));
		fireEvent.keyDown(tab("cURL"), { key: "ArrowRight" });
		expect(document.activeElement).toBe(tab("Python"));
		fireEvent.keyDown(tab("Python"), { key: "ArrowLeft" });
		expect(document.activeElement).toBe(tab("cURL"));
		fireEvent.keyDown(tab("cURL"), { key: "Home" });
		expect(document.activeElement).toBe(tab("Python"));
		expect(onSelect.mock.calls.map((call) => call[0])).toEqual(["js", "sh", "python", "sh", "python"]);
	});

	it("clicking selects; a controlled selection wins", () => {
		const { rerender } = render(<Tabs label="Language" items={items} selected="sh" />);
		expect(screen.getByRole("tab", { name: "cURL" }).getAttribute("aria-selected")).toBe("true");
		fireEvent.click(screen.getByRole("tab", { name: "Python" }));
		expect(screen.getByRole("tab", { name: "cURL" }).getAttribute("aria-selected")).toBe("true");
		rerender(<Tabs label="Language" items={items} selected="python" />);
		expect(screen.getByRole("tabpanel").textContent).toBe("python panel");
	});

	it("computes the next index", () => {
		expect(nextTabIndex("ArrowRight", 2, 3)).toBe(0);
		expect(nextTabIndex("ArrowLeft", 0, 3)).toBe(2);
		expect(nextTabIndex("Home", 2, 3)).toBe(0);
		expect(nextTabIndex("End", 0, 3)).toBe(2);
		expect(nextTabIndex("a", 0, 3)).toBeUndefined();
		expect(nextTabIndex("ArrowRight", 0, 0)).toBeUndefined();
	});
});
