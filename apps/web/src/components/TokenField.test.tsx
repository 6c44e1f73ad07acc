// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { useState } from "react";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import SettingsPage from "../pages/Settings";
import { getSettings, resetSettings, updateSettings } from "../settings/store";
import { TokenSignIn } from "./account/TokenSignIn";
import { submittedToken, TokenField } from "./TokenField";

const TOKEN = "hf_unit_secret_token_123";

afterEach(() => {
	cleanup();
	resetSettings();
});

function type(label: string, text: string): HTMLInputElement {
	const field = screen.getByLabelText(label) as HTMLInputElement;
	fireEvent.change(field, { target: { value: text } });
	return field;
}

describe("TokenField", () => {
	it("keeps the token out of the markup, reads it on submit, and mirrors a token kept elsewhere", () => {
		const onToken = vi.fn();
		const submitted: string[] = [];
		function Form() {
			const [mirror, setMirror] = useState("");
			return (
				<form
					onSubmit={(event) => {
						event.preventDefault();
						submitted.push(submittedToken(event.currentTarget));
					}}
				>
					<TokenField label="Access token" mirror={mirror} onToken={onToken} help="Kept in memory" />
					<button type="button" onClick={() => setMirror("")}>
						Forget
					</button>
					<button type="submit">Send</button>
				</form>
			);
		}
		const { container } = render(<Form />);
		const field = type("Access token", `  ${TOKEN} `);
		expect(onToken).toHaveBeenLastCalledWith(TOKEN);
		expect(field.value).toBe(`  ${TOKEN} `);
		expect(container.innerHTML).not.toContain(TOKEN);
		expect(field.getAttribute("aria-describedby")).toBe(screen.getByText("Kept in memory").id);
		fireEvent.click(screen.getByRole("button", { name: "Send" }));
		expect(submitted).toEqual([TOKEN]);
		// The mirror's change ("" after Forget) empties the field; equal values leave the typing alone.
		fireEvent.click(screen.getByRole("button", { name: "Forget" }));
		expect(field.value).toBe(`  ${TOKEN} `);
	});

	it("follows the in-memory settings token, e.g. emptied by Forget the token", () => {
		updateSettings({ token: TOKEN });
		render(
			<MemoryRouter>
				<SettingsPage />
			</MemoryRouter>,
		);
		const field = screen.getByLabelText("Token") as HTMLInputElement;
		expect(field.value).toBe(TOKEN);
		expect(document.body.innerHTML).not.toContain(TOKEN);
		fireEvent.click(screen.getByRole("button", { name: "Forget the token" }));
		expect(field.value).toBe("");
	});

	it("Settings: the token typed never reaches the markup and is saved on submit", () => {
		render(
			<MemoryRouter>
				<SettingsPage />
			</MemoryRouter>,
		);
		type("Token", TOKEN);
		expect(document.body.innerHTML).not.toContain(TOKEN);
		expect(getSettings().token).toBe("");
		fireEvent.click(screen.getByRole("button", { name: "Save settings" }));
		expect(getSettings().token).toBe(TOKEN);
		expect(document.body.innerHTML).not.toContain(TOKEN);
	});

	it("sign-in: the token typed never reaches the markup; a problem is linked to the field", () => {
		render(<TokenSignIn hubUrl="http://127.0.0.1:9" />);
		const field = type("Hub access token", "hf_not_a_hub_token_456");
		expect(document.body.innerHTML).not.toContain("hf_not_a_hub_token_456");
		fireEvent.click(screen.getByRole("button", { name: "Sign in with token" }));
		const alert = screen.getByTestId("sign-in-error");
		expect(field.getAttribute("aria-invalid")).toBe("true");
		expect(field.getAttribute("aria-describedby")?.split(" ")).toContain(alert.id);
		expect(field.value).toBe("hf_not_a_hub_token_456");
	});
});
