import { useState } from "react";
import { useNavigate } from "react-router";
import { deleteRepo } from "../../api/account";
import type { ApiOptions } from "../../api/http";
import { useRepoType } from "../../hooks/useRepoType";
import { splitModelId } from "../../view/model";
import { Field } from "../Field";

/**
 * "Delete this model" (or dataset): the repository, its files and its history go for good
 * (`DELETE /api/repos/delete`, the owner's admin right), once its id is typed to confirm, as on the public
 * hub. The list of the namespace's repositories of that type opens after.
 */
export function DeleteSettings({ modelId, api }: { modelId: string; api: ApiOptions }) {
	const what = useRepoType();
	const navigate = useNavigate();
	const [typed, setTyped] = useState("");
	const [busy, setBusy] = useState(false);
	const [error, setError] = useState<string>();
	// The type is known: "model" and "dataset" are the types with pages (and settings) here.
	const type = what === "dataset" ? "dataset" : "model";

	const submit = async () => {
		setBusy(true);
		setError(undefined);
		try {
			const deleted = await deleteRepo(modelId, type, api);
			const { namespace } = splitModelId(deleted);
			const list = type === "dataset" ? "/datasets" : "/models";
			void navigate(namespace ? `${list}?author=${encodeURIComponent(namespace)}` : list);
		} catch (failure) {
			setError(failure instanceof Error ? failure.message : String(failure));
			setBusy(false);
		}
	};

	return (
		<section aria-labelledby="delete-title" className="settings-section">
			<h2 id="delete-title">Delete this {what}</h2>
			<p>
				Its files, history, branches and tags are deleted for good: this cannot be undone, and {modelId} stops
				answering to clients and links.
			</p>
			<form
				onSubmit={(event) => {
					event.preventDefault();
					if (typed === modelId) void submit();
				}}
			>
				<Field label={`Type ${modelId} to confirm`}>
					{(control) => (
						<input
							{...control}
							className="input"
							value={typed}
							autoComplete="off"
							spellCheck={false}
							disabled={busy}
							onChange={(event) => setTyped(event.target.value)}
						/>
					)}
				</Field>
				<button type="submit" className="btn btn-danger" disabled={busy || typed !== modelId}>
					{busy ? "Deleting…" : `Delete ${modelId}`}
				</button>
			</form>
			{error ? (
				<div className="notice notice-error" role="alert">
					<strong>Could not delete the {what}</strong>
					<div>{error}</div>
				</div>
			) : null}
		</section>
	);
}
