import { useEffect, useId, useRef, type ReactNode } from "react";

/** The form field's name, read back on submit by `submittedToken`. */
const TOKEN_FIELD_NAME = "token";

interface TokenFieldProps {
	label: string;
	/** A line under the field, linked to it by `aria-describedby`. */
	help?: ReactNode;
	/** The id of an error about the token, shown by the form (linked, and the field marked invalid). */
	errorId?: string;
	/**
	 * A token kept elsewhere (the settings' in-memory token): copied into the element's `value`
	 * property whenever it changes (so "Forget the token" empties the field), never into an attribute.
	 */
	mirror?: string;
	/** Each edit, trimmed: for a form that needs the token before it is submitted (the playground's preview). */
	onToken?: (token: string) => void;
	placeholder?: string;
}

/**
 * The one access-token field (playground, Settings, sign-in). Uncontrolled: the token is never a
 * `value` attribute or any rendered state, so it never lands in the page's markup; a form reads it when
 * submitted (`submittedToken`). One element for the field's whole life: it is never swapped for another
 * while typing (the first keystroke once unmounted it and kept one character).
 */
export function TokenField({ label, help, errorId, mirror, onToken, placeholder }: TokenFieldProps) {
	const id = useId();
	const helpId = useId();
	const input = useRef<HTMLInputElement>(null);
	useEffect(() => {
		if (mirror !== undefined && input.current && input.current.value !== mirror) input.current.value = mirror;
	}, [mirror]);
	const describedBy = [help ? helpId : undefined, errorId].filter(Boolean).join(" ") || undefined;
	return (
		<div className="field">
			<label htmlFor={id}>{label}</label>
			<input
				ref={input}
				id={id}
				name={TOKEN_FIELD_NAME}
				type="password"
				className="input"
				autoComplete="off"
				spellCheck={false}
				placeholder={placeholder}
				aria-describedby={describedBy}
				aria-invalid={errorId ? true : undefined}
				onChange={onToken ? (event) => onToken(event.target.value.trim()) : undefined}
			/>
			{help ? (
				<span id={helpId} className="muted small">
					{help}
				</span>
			) : null}
		</div>
	);
}

/** The token typed into the `TokenField` of a submitted form, trimmed ("" when empty). */
export function submittedToken(form: HTMLFormElement): string {
	const value = new FormData(form).get(TOKEN_FIELD_NAME);
	return typeof value === "string" ? value.trim() : "";
}
