import { useId } from "react";

export interface RevisionOption {
	name: string;
	kind: "branch" | "tag";
}

/**
 * The branch and tag switcher of every browsing view. A revision that is neither (a commit id) is
 * listed too, so the control always shows where the page is.
 */
export function RevisionSwitcher({
	revision,
	options,
	onChange,
}: {
	revision: string;
	options: readonly RevisionOption[];
	onChange: (revision: string) => void;
}) {
	const id = useId();
	const known = options.some((option) => option.name === revision);
	return (
		<div className="field field-inline revision-switcher">
			<label htmlFor={id}>Revision</label>
			<select id={id} className="input" value={revision} onChange={(event) => onChange(event.target.value)}>
				{known ? null : (
					<option value={revision}>{revision.length === 40 ? revision.slice(0, 7) : revision}</option>
				)}
				{options.map((option) => (
					<option key={`${option.kind}:${option.name}`} value={option.name}>
						{option.name} ({option.kind})
					</option>
				))}
			</select>
		</div>
	);
}
