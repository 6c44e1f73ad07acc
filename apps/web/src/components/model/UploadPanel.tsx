import { useId, useRef, useState, type DragEvent, type FormEvent } from "react";
import type { CommitResult } from "../../api/commit";
import { useUpload } from "../../hooks/useUpload";
import { formatBytes } from "../../view/format";
import {
	defaultSummary,
	MAX_PENDING_FILES,
	totalBytes,
	uploadPercent,
	uploadProblem,
	type ChosenFile,
} from "../../view/upload";
import { droppedFiles } from "./dropped-files";

function chosenOf(list: FileList | null): ChosenFile[] {
	return Array.from(list ?? []).map((file) => ({
		file,
		name: file.name,
		...(file.webkitRelativePath ? { relativePath: file.webkitRelativePath } : {}),
	}));
}

/**
 * "Add files": a drop zone and file and folder pickers, the pending files with their repository paths
 * and sizes, the commit message, and the commit with its progress, cancel and the hub's answer.
 */
export function UploadPanel({
	modelId,
	api,
	folder,
	onCommitted,
}: {
	modelId: string;
	api: { baseUrl: string; token?: string };
	/** The repository folder the files go to ("" for the root). */
	folder: string;
	onCommitted: (result: CommitResult, paths: string[]) => void;
}) {
	const upload = useUpload(modelId, api, onCommitted);
	const [summary, setSummary] = useState("");
	const [description, setDescription] = useState("");
	const [dragging, setDragging] = useState(false);
	const [problem, setProblem] = useState<string>();
	const ids = { files: useId(), folder: useId(), summary: useId(), description: useId(), progress: useId() };
	const filesInput = useRef<HTMLInputElement>(null);
	const folderInput = useRef<HTMLInputElement>(null);
	const percent = uploadPercent(upload.loaded, upload.total);
	const proposed = defaultSummary(upload.files);

	const add = (chosen: ChosenFile[]) => {
		setProblem(undefined);
		upload.add(chosen, folder);
	};

	const onDrop = (event: DragEvent<HTMLDivElement>) => {
		event.preventDefault();
		setDragging(false);
		if (upload.busy) return;
		void droppedFiles(event.dataTransfer, MAX_PENDING_FILES).then(add, (error: unknown) =>
			setProblem(
				`Could not read the dropped files: ${error instanceof Error ? error.message : String(error)}`,
			),
		);
	};

	const submit = (event: FormEvent) => {
		event.preventDefault();
		const message = summary.trim() || proposed;
		const blocked = uploadProblem(upload.files, message);
		setProblem(blocked);
		if (!blocked) void upload.start(message, description);
	};

	return (
		<section className="upload-panel" aria-labelledby={`${ids.files}-title`}>
			<h2 id={`${ids.files}-title`} className="upload-title">
				Add files to {modelId}
				{folder ? <span className="muted"> / {folder}</span> : null}
			</h2>
			<form onSubmit={submit} noValidate>
				<div
					className={`drop-zone${dragging ? " drop-zone-active" : ""}`}
					data-testid="drop-zone"
					onDragEnter={(event) => {
						event.preventDefault();
						setDragging(true);
					}}
					onDragOver={(event) => {
						event.preventDefault();
						event.dataTransfer.dropEffect = "copy";
					}}
					onDragLeave={(event) => {
						if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
					}}
					onDrop={onDrop}
				>
					<p className="drop-zone-text">
						<span aria-hidden="true" className="drop-zone-icon">
							⇪
						</span>{" "}
						Drag files or a folder here, or
					</p>
					<div className="drop-zone-actions">
						<input
							ref={filesInput}
							id={ids.files}
							type="file"
							multiple
							className="visually-hidden file-input"
							disabled={upload.busy}
							onChange={(event) => {
								add(chosenOf(event.target.files));
								event.target.value = "";
							}}
						/>
						<label htmlFor={ids.files} className="btn btn-small" aria-disabled={upload.busy || undefined}>
							Choose files
						</label>
						<input
							ref={folderInput}
							id={ids.folder}
							type="file"
							className="visually-hidden file-input"
							disabled={upload.busy}
							// React does not know the attribute; it is the standard way to pick a folder.
							{...{ webkitdirectory: "" }}
							onChange={(event) => {
								add(chosenOf(event.target.files));
								event.target.value = "";
							}}
						/>
						<label htmlFor={ids.folder} className="btn btn-small" aria-disabled={upload.busy || undefined}>
							Choose a folder
						</label>
					</div>
				</div>

				{upload.dropped > 0 ? (
					<p className="field-error" role="alert">
						{upload.dropped} files were left out: one commit takes at most {MAX_PENDING_FILES} files.
					</p>
				) : null}

				{upload.files.length > 0 ? (
					<table className="file-table pending-files">
						<caption>
							{upload.files.length === 1 ? "1 file" : `${upload.files.length} files`} to upload,{" "}
							{formatBytes(totalBytes(upload.files))}
						</caption>
						<thead>
							<tr>
								<th scope="col">Path in the repository</th>
								<th scope="col" className="numeric">
									Size
								</th>
								<th scope="col">
									<span className="visually-hidden">Remove</span>
								</th>
							</tr>
						</thead>
						<tbody>
							{upload.files.map((entry) => (
								<tr key={entry.path} data-problem={entry.problem ? "" : undefined}>
									<th scope="row" className="pending-path">
										{entry.path}
										{entry.problem ? <span className="field-error"> — {entry.problem}</span> : null}
									</th>
									<td className="numeric">{formatBytes(entry.size)}</td>
									<td>
										<button
											type="button"
											className="link-button"
											disabled={upload.busy}
											onClick={() => upload.remove(entry.path)}
										>
											Remove<span className="visually-hidden"> {entry.path}</span>
										</button>
									</td>
								</tr>
							))}
						</tbody>
					</table>
				) : null}

				<div className="field">
					<label htmlFor={ids.summary}>Commit message</label>
					<input
						id={ids.summary}
						className="input"
						value={summary}
						placeholder={proposed}
						maxLength={1000}
						disabled={upload.busy}
						onChange={(event) => setSummary(event.target.value)}
					/>
				</div>
				<div className="field">
					<label htmlFor={ids.description}>
						Extended description <span className="muted">(optional)</span>
					</label>
					<textarea
						id={ids.description}
						className="input"
						rows={2}
						value={description}
						disabled={upload.busy}
						onChange={(event) => setDescription(event.target.value)}
					/>
				</div>

				{upload.phase === "uploading" || upload.phase === "processing" || upload.phase === "done" ? (
					<div className="upload-progress">
						<label htmlFor={ids.progress} className="upload-progress-label">
							{upload.phase === "done" ? "Uploaded" : "Uploading"}
						</label>
						<progress id={ids.progress} max={100} value={percent} aria-valuetext={`${percent} %`} />
						<span className="upload-progress-text" aria-hidden="true">
							{percent} %
							{upload.total > 0 ? ` · ${formatBytes(upload.loaded)} of ${formatBytes(upload.total)}` : ""}
						</span>
					</div>
				) : null}

				<p className="upload-status" role="status" aria-live="polite">
					{upload.phase === "processing" ? "Sent. The hub is storing the files…" : null}
					{upload.phase === "cancelled" ? "Upload cancelled. Nothing was committed." : null}
					{upload.phase === "done"
						? `Committed ${upload.committed.length === 1 ? "1 file" : `${upload.committed.length} files`} to main${upload.commit?.commitOid ? ` (commit ${upload.commit.commitOid.slice(0, 7)})` : ""}.`
						: null}
				</p>
				{upload.phase === "error" || problem ? (
					<div className="notice notice-error" role="alert" data-testid="upload-error">
						<strong>{problem ? "Cannot upload yet" : "The hub refused the upload"}</strong>
						<div>{problem ?? upload.error}</div>
					</div>
				) : null}

				<div className="form-actions">
					{/* Keys keep these distinct elements: were the Cancel button re-used as the submit button,
					    the click that cancels would, once React re-rendered in its microtask, submit the form
					    again (the browser's activation runs after the listeners). */}
					{upload.busy ? (
						<button key="cancel" type="button" className="btn" onClick={upload.cancel}>
							Cancel upload
						</button>
					) : (
						<>
							<button
								key="commit"
								type="submit"
								className="btn btn-primary"
								disabled={upload.files.length === 0}
							>
								Commit changes to main
							</button>
							{upload.files.length > 0 ? (
								<button type="button" className="btn" onClick={upload.clear}>
									Clear the list
								</button>
							) : null}
						</>
					)}
				</div>
			</form>
		</section>
	);
}
