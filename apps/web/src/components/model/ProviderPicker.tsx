import type { ProviderEntry } from "../../view/providers";
import { StatusBadge } from "../Badges";

/** Choose one provider; a native radio group, labelled by its legend. */
export function ProviderPicker({
	name,
	legend,
	providers,
	value,
	onChange,
}: {
	name: string;
	legend: string;
	providers: ProviderEntry[];
	value: string | undefined;
	onChange: (provider: string) => void;
}) {
	return (
		<fieldset className="provider-picker">
			<legend>{legend}</legend>
			<ul className="provider-list">
				{providers.map((entry) => (
					<li key={entry.provider}>
						<label
							className="provider-option"
							data-state={entry.provider === value ? "checked" : "unchecked"}
						>
							<input
								type="radio"
								name={name}
								value={entry.provider}
								checked={entry.provider === value}
								onChange={() => onChange(entry.provider)}
							/>
							<span className="provider-name">{entry.label}</span>
							<StatusBadge status={entry.status} />
							{entry.adapter ? <span className="badge">{entry.adapter}</span> : null}
						</label>
					</li>
				))}
			</ul>
		</fieldset>
	);
}
