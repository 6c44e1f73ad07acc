import { useState } from "react";
import { Link } from "react-router";
import { repoId, repoPagePath } from "@modelhub/tasks/repositories";
import { moveRepo } from "../../api/account";
import type { ApiOptions } from "../../api/http";
import { useRepoType } from "../../hooks/useRepoType";
import { splitModelId } from "../../view/model";
import { Field } from "../Field";

/**
 * "Rename or transfer": a new namespace and name for the repository (POST /api/repos/move). The hub
 * checks the rights (a rename needs write in the namespace, a transfer admin here and write there) and
 * answers with the new id, linked once moved; the former address redirects to it.
 */
export function MoveSettings({ modelId, api }: { modelId: string; api: ApiOptions }) {
	const what = useRepoType();
	const current = splitModelId(modelId);
	const [namespace, setNamespace] = useState(current.namespace);
	const [name, setName] = useState(current.name);
	const [busy, setBusy] = useState(false);
	const [moved, setMoved] = useState<string>();
	const [error, setError] = useState<string>();
	const target = namespace.trim() ? `${namespace.trim()}/${name.trim()}` : name.trim();

	const submit = async () => {
		setBusy(true);
		setError(undefined);
		setMoved(undefined);
		try {
			setMoved(await moveRepo(modelId, target, what, api));
		} catch (failure) {
			setError(failure instanceof Error ? failure.message : String(failure));
		} finally {
			setBusy(false);
		}
	};

	return (
		<section aria-labelledby="move-title" className="settings-section">
			<h2 id="move-title">Rename or transfer</h2>
			<p>
				Give this {what} a new name, or move it to an organisation you may write to. Links to {modelId} keep
				working: they redirect to the new address until another {what} takes this name.
			</p>
			<form
				onSubmit={(event) => {
					event.preventDefault();
					void submit();
				}}
			>
				<Field label="New namespace">
					{(control) => (
						<input
							{...control}
							className="input"
							value={namespace}
							disabled={busy || moved !== undefined}
							onChange={(event) => setNamespace(event.target.value)}
						/>
					)}
				</Field>
				<Field label="New name">
					{(control) => (
						<input
							{...control}
							className="input"
							value={name}
							required
							disabled={busy || moved !== undefined}
							onChange={(event) => setName(event.target.value)}
						/>
					)}
				</Field>
				<button
					type="submit"
					className="btn"
					disabled={busy || moved !== undefined || target === modelId || name.trim() === ""}
				>
					{busy ? "Moving…" : `Move to ${target}`}
				</button>
			</form>
			<p role="status" aria-live="polite" className="settings-feedback">
				{moved ? (
					<>
						Moved. Its address is now <Link to={repoPagePath(repoId(what, moved))}>{moved}</Link>.
					</>
				) : null}
			</p>
			{error ? (
				<div className="notice notice-error" role="alert">
					<strong>Could not move the {what}</strong>
					<div>{error}</div>
				</div>
			) : null}
		</section>
	);
}
