// @vitest-environment jsdom
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { Field } from "./Field";

afterEach(cleanup);

function describedBy(element: HTMLElement): string[] {
	return (element.getAttribute("aria-describedby") ?? "")
		.split(" ")
		.filter(Boolean)
		.map((id) => document.getElementById(id)?.textContent ?? `missing #${id}`);
}

describe("Field", () => {
	it("labels its control; with no help and no error it describes nothing and is not invalid", () => {
		render(<Field label="Payload URL">{(control) => <input {...control} />}</Field>);
		const input = screen.getByRole("textbox", { name: "Payload URL" });
		expect(input.hasAttribute("aria-describedby")).toBe(false);
		expect(input.hasAttribute("aria-invalid")).toBe(false);
	});

	it("is described by its help line, then by its error, which marks it invalid", () => {
		const { rerender } = render(
			<Field label="New password" description="8 to 256 characters.">
				{(control) => <input {...control} type="text" />}
			</Field>,
		);
		const input = screen.getByRole("textbox", { name: "New password" });
		expect(describedBy(input)).toEqual(["8 to 256 characters."]);
		expect(input.getAttribute("aria-invalid")).toBeNull();
		rerender(
			<Field label="New password" description="8 to 256 characters." error="Too short." alert>
				{(control) => <input {...control} type="text" />}
			</Field>,
		);
		expect(describedBy(input)).toEqual(["8 to 256 characters.", "Too short."]);
		expect(input.getAttribute("aria-invalid")).toBe("true");
		expect(screen.getByRole("alert").textContent).toBe("Too short.");
		// An empty error is no error.
		rerender(
			<Field label="New password" error="">
				{(control) => <input {...control} type="text" />}
			</Field>,
		);
		expect(input.hasAttribute("aria-describedby")).toBe(false);
		expect(input.hasAttribute("aria-invalid")).toBe(false);
	});

	it("keeps a hidden label the control's name, and takes a select as well as an input", () => {
		render(
			<Field label="Role" labelHidden className="inline">
				{(control) => (
					<select {...control}>
						<option>read</option>
					</select>
				)}
			</Field>,
		);
		const select = screen.getByRole("combobox", { name: "Role" });
		expect(select.closest("div")?.className).toBe("inline");
		expect(screen.getByText("Role").className).toBe("visually-hidden");
	});
});
