import { useId } from "react";

/** An on/off switch: a real checkbox with role="switch", so it is keyboard- and screen-reader-ready. */
export function Switch({
	label,
	checked,
	onChange,
	description,
}: {
	label: string;
	checked: boolean;
	onChange: (checked: boolean) => void;
	description?: string;
}) {
	const id = useId();
	return (
		<div className="switch-field">
			<input
				id={id}
				type="checkbox"
				role="switch"
				className="switch"
				checked={checked}
				aria-describedby={description ? `${id}-description` : undefined}
				onChange={(event) => onChange(event.target.checked)}
			/>
			<label htmlFor={id}>{label}</label>
			{description ? (
				<span id={`${id}-description`} className="muted small">
					{description}
				</span>
			) : null}
		</div>
	);
}
