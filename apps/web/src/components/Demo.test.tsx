// @vitest-environment jsdom
import { cleanup, render, screen } from "@testing-library/react";
import type { TaskDemoEntry } from "@modelhub/tasks";
import { afterEach, describe, expect, it } from "vitest";
import { DemoEntry } from "./Demo";

afterEach(cleanup);

describe("DemoEntry", () => {
	it("renders an image with a description and the hub's demo path", () => {
		render(<DemoEntry entry={{ type: "img", filename: "object-detection-input.svg" }} role="Input" />);
		const image = screen.getByRole("img");
		expect(image.getAttribute("src")).toBe("/assets/demo/object-detection-input.svg");
		expect(image.getAttribute("alt")).toBe("Input image: object detection input");
	});

	it("renders an audio player with controls", () => {
		const { container } = render(<DemoEntry entry={{ type: "audio", filename: "input.wav" }} role="Input" />);
		const audio = container.querySelector("audio");
		expect(audio?.hasAttribute("controls")).toBe(true);
		expect(audio?.getAttribute("src")).toBe("/assets/demo/input.wav");
		expect(screen.getByText("Input audio")).toBeTruthy();
	});

	it("renders labelled text", () => {
		render(<DemoEntry entry={{ type: "text", label: "Question", content: "Where?" }} role="Input" />);
		expect(screen.getByText("Question")).toBeTruthy();
		expect(screen.getByText("Where?")).toBeTruthy();
	});

	it("renders a chart as bars, highest first, with widths and percentages", () => {
		const entry: TaskDemoEntry = {
			type: "chart",
			data: [
				{ label: "cat", score: 0.2 },
				{ label: "dog", score: 0.75 },
			],
		};
		const { container } = render(<DemoEntry entry={entry} role="Output" />);
		expect([...container.querySelectorAll(".bar-label")].map((node) => node.textContent)).toEqual([
			"dog",
			"cat",
		]);
		expect([...container.querySelectorAll<HTMLElement>(".bar-fill")].map((node) => node.style.width)).toEqual(
			["75%", "20%"],
		);
		expect([...container.querySelectorAll(".bar-value")].map((node) => node.textContent)).toEqual([
			"75.0%",
			"20.0%",
		]);
	});

	it("renders a table with its header row", () => {
		render(
			<DemoEntry
				entry={{
					type: "tabular",
					table: [
						["Name", "Age"],
						["Ada", "36"],
					],
				}}
				role="Input"
			/>,
		);
		expect(screen.getAllByRole("columnheader").map((cell) => cell.textContent)).toEqual(["Name", "Age"]);
		expect(screen.getAllByRole("cell").map((cell) => cell.textContent)).toEqual(["Ada", "36"]);
		expect(screen.getByRole("region", { name: "Input table" })).toBeTruthy();
	});

	it("renders tagged tokens with their types", () => {
		const { container } = render(
			<DemoEntry
				entry={{
					type: "text-with-tokens",
					text: "Ada in London",
					tokens: [
						{ type: "PER", start: 0, end: 3 },
						{ type: "LOC", start: 7, end: 13 },
					],
				}}
				role="Output"
			/>,
		);
		const marks = [...container.querySelectorAll("mark")];
		expect(marks.map((mark) => mark.textContent)).toEqual(["Ada (PER)", "London (LOC)"]);
		expect(marks.map((mark) => mark.className)).toEqual(["token token-slot-0", "token token-slot-1"]);
		expect(container.querySelector(".token-body")?.textContent).toBe("Ada (PER) in London (LOC)");
	});
});
