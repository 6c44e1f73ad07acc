import { useId, type ReactNode } from "react";

/** What a field's control (input, select, textarea) spreads onto itself. */
export interface FieldControl {
	id: string;
	"aria-describedby"?: string;
	"aria-invalid"?: true;
}

export interface FieldWiring {
	/** The control's props: the id its label points to, its description and error ids, invalid on error. */
	control: FieldControl;
	descriptionId: string;
	errorId: string;
}

/**
 * A form control's ids and ARIA wiring: its description (help line) and its error, when shown, describe
 * it (description first), and an error marks it invalid. For a form that lays the parts out itself
 * (NewRepo's owner/name row); `Field` is the usual layout.
 */
export function useField({ description, error }: { description?: boolean; error?: boolean }): FieldWiring {
	const id = useId();
	const descriptionId = `${id}-description`;
	const errorId = `${id}-error`;
	const describedBy = [description ? descriptionId : "", error ? errorId : ""].filter(Boolean).join(" ");
	return {
		control: {
			id,
			...(describedBy ? { "aria-describedby": describedBy } : {}),
			...(error ? { "aria-invalid": true as const } : {}),
		},
		descriptionId,
		errorId,
	};
}

interface FieldProps {
	label: ReactNode;
	/** The label is for assistive technology only (a search box whose placeholder says what it is for). */
	labelHidden?: boolean;
	/** A help line under the control. */
	description?: ReactNode;
	/** What is wrong with the value, under the control (nothing while undefined or empty). */
	error?: string;
	/** Announce the error when it appears (`role="alert"`), for a problem found on submit. */
	alert?: boolean;
	/** The wrapper's class ("field" by default). */
	className?: string;
	/** The control, given the props that wire it to its label, description and error. */
	children: (control: FieldControl) => ReactNode;
}

/** A label, its control, a help line and an error, wired together (`useField`). */
export function Field({ label, labelHidden, description, error, alert, className, children }: FieldProps) {
	const { control, descriptionId, errorId } = useField({
		description: description !== undefined,
		error: !!error,
	});
	return (
		<div className={className ?? "field"}>
			<label htmlFor={control.id} className={labelHidden ? "visually-hidden" : undefined}>
				{label}
			</label>
			{children(control)}
			{description !== undefined ? (
				<span id={descriptionId} className="muted small">
					{description}
				</span>
			) : null}
			{error ? (
				<span id={errorId} className="field-error" role={alert ? "alert" : undefined}>
					{error}
				</span>
			) : null}
		</div>
	);
}
