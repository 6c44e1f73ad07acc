/**
 * Editing in the browser (a chunk of its own, loaded when someone who may write opens it): a text file
 * or the model card edited and committed with a message, the card's metadata checked by the hub first
 * (its errors shown beside the text), and a file deleted. Commits go to a branch, with the commit the
 * text was read at as `parentCommit`: the hub refuses the commit if someone committed in between.
 */
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from "react";
import { sendCommit, type CommitResult } from "../../api/commit";
import { readForEdit, validateCard } from "../../api/edit";
import { useApiOptions } from "../../hooks/useApiOptions";
import { useResource } from "../../hooks/useResource";
import {
	buildEditForm,
	defaultEditSummary,
	editSummaryProblem,
	isCard,
	type CardCheck,
	type EditCommit,
} from "../../view/edit";
import { ErrorNotice, Loading } from "../Status";

interface CommitTarget {
	modelId: string;
	/** The branch the commit goes to. */
	branch: string;
	path: string;
}

/** The message fields every commit from the page has, and the button that sends it. */
function CommitFields({
	summary,
	proposed,
	description,
	busy,
	submitLabel,
	onSummary,
	onDescription,
	onCancel,
	summaryRef,
}: {
	summary: string;
	proposed: string;
	description: string;
	busy: boolean;
	submitLabel: ReactNode;
	onSummary: (value: string) => void;
	onDescription: (value: string) => void;
	onCancel: () => void;
	summaryRef?: React.Ref<HTMLInputElement>;
}) {
	const ids = { summary: useId(), description: useId() };
	return (
		<>
			<div className="field">
				<label htmlFor={ids.summary}>Commit message</label>
				<input
					ref={summaryRef}
					id={ids.summary}
					className="input"
					value={summary}
					placeholder={proposed}
					maxLength={1000}
					disabled={busy}
					onChange={(event) => onSummary(event.target.value)}
				/>
			</div>
			<div className="field">
				<label htmlFor={ids.description}>
					Extended description <span className="muted">(optional)</span>
				</label>
				<textarea
					id={ids.description}
					className="input"
					rows={3}
					value={description}
					disabled={busy}
					onChange={(event) => onDescription(event.target.value)}
				/>
			</div>
			<div className="edit-actions">
				<button type="submit" className="btn btn-primary" disabled={busy}>
					{submitLabel}
				</button>
				<button type="button" className="btn" disabled={busy} onClick={onCancel}>
					Cancel
				</button>
				{busy ? <Loading label="Committing" /> : null}
			</div>
		</>
	);
}

function messageOf(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

/** Sends one commit from the page, with its busy state and the hub's refusal. */
function useEditCommit(target: CommitTarget, onCommitted: (result: CommitResult) => void) {
	const api = useApiOptions();
	const [busy, setBusy] = useState(false);
	const [error, setError] = useState<string>();
	const alive = useRef(true);
	useEffect(
		() => () => {
			alive.current = false;
		},
		[],
	);
	const send = async (commit: EditCommit) => {
		setBusy(true);
		setError(undefined);
		try {
			const result = await sendCommit(target.modelId, buildEditForm(commit), {
				...api,
				branch: target.branch,
			});
			if (alive.current) onCommitted(result);
		} catch (reason) {
			if (alive.current) setError(messageOf(reason));
		} finally {
			if (alive.current) setBusy(false);
		}
	};
	return { api, busy, error, setError, setBusy, send };
}

/** The editor of one file: its whole text, then the commit. */
export function FileEditor({
	modelId,
	branch,
	path,
	onCommitted,
	onCancel,
}: CommitTarget & { onCommitted: (result: CommitResult) => void; onCancel: () => void }) {
	const api = useApiOptions();
	const loaded = useResource(
		(signal) => readForEdit(modelId, branch, path, { ...api, signal }),
		[modelId, branch, path, api],
	);
	if (loaded.status === "loading") return <Loading label="Opening the editor" />;
	if (loaded.status === "error")
		return <ErrorNotice title="Could not open the file for editing">{loaded.error.message}</ErrorNotice>;
	return (
		<EditForm
			modelId={modelId}
			branch={branch}
			path={path}
			initialText={loaded.data.text}
			parentCommit={loaded.data.commitId}
			onCommitted={onCommitted}
			onCancel={onCancel}
		/>
	);
}

/** The editor of a file the branch does not have yet (a new model card), opened with `initialText`. */
export function NewFileEditor({
	initialText,
	...props
}: CommitTarget & {
	initialText: string;
	onCommitted: (result: CommitResult) => void;
	onCancel: () => void;
}) {
	return <EditForm {...props} initialText={initialText} parentCommit={undefined} creating />;
}

function EditForm({
	modelId,
	branch,
	path,
	initialText,
	parentCommit,
	creating = false,
	onCommitted,
	onCancel,
}: CommitTarget & {
	initialText: string;
	parentCommit: string | undefined;
	/** The file is new: the title and the proposed message say "Create". */
	creating?: boolean;
	onCommitted: (result: CommitResult) => void;
	onCancel: () => void;
}) {
	const commit = useEditCommit({ modelId, branch, path }, onCommitted);
	const [text, setText] = useState(initialText);
	const [summary, setSummary] = useState("");
	const [description, setDescription] = useState("");
	const [check, setCheck] = useState<CardCheck>();
	const [problem, setProblem] = useState<string>();
	const ids = { text: useId(), check: useId(), title: useId() };
	const textArea = useRef<HTMLTextAreaElement>(null);
	const card = isCard(path);
	const proposed = defaultEditSummary(path, creating ? "create" : "update");
	const invalid = (check?.errors.length ?? 0) > 0;

	// The editor opens with the text focused: a keyboard user types at once.
	useEffect(() => textArea.current?.focus(), []);

	const submit = async (event: FormEvent) => {
		event.preventDefault();
		const message = summary.trim() || proposed;
		const blocked = editSummaryProblem(message);
		setProblem(blocked);
		if (blocked) return;
		if (card) {
			commit.setBusy(true);
			commit.setError(undefined);
			let result: CardCheck;
			try {
				result = await validateCard(text, commit.api);
			} catch (reason) {
				commit.setBusy(false);
				commit.setError(`The metadata could not be checked: ${messageOf(reason)}`);
				return;
			}
			setCheck(result);
			commit.setBusy(false);
			if (result.errors.length > 0) {
				// Back to the text, whose description now names the errors.
				textArea.current?.focus();
				return;
			}
		}
		await commit.send({
			summary: message,
			description,
			...(parentCommit ? { parentCommit } : {}),
			put: { path, text },
		});
	};

	return (
		<section className="file-editor" aria-labelledby={ids.title}>
			<h3 id={ids.title} className="browse-subheading">
				{creating ? "Create" : "Edit"} {path} <span className="muted">on {branch}</span>
			</h3>
			<form onSubmit={(event) => void submit(event)} noValidate>
				<div className="field">
					<label htmlFor={ids.text}>Contents of {path}</label>
					{card ? (
						<p className="muted field-hint" id={`${ids.text}-hint`}>
							The metadata between the first two <code>---</code> lines is checked by the hub before the
							commit.
						</p>
					) : null}
					<textarea
						ref={textArea}
						id={ids.text}
						className="input code-editor"
						value={text}
						rows={Math.min(30, Math.max(8, text.split("\n").length + 1))}
						spellCheck={false}
						autoCapitalize="off"
						autoCorrect="off"
						disabled={commit.busy}
						aria-invalid={invalid || undefined}
						aria-describedby={
							[
								card ? `${ids.text}-hint` : "",
								check && (invalid || check.warnings.length > 0) ? ids.check : "",
							]
								.filter(Boolean)
								.join(" ") || undefined
						}
						onChange={(event) => {
							setText(event.target.value);
							setCheck(undefined);
						}}
					/>
					{check && invalid ? (
						<div id={ids.check} className="field-error card-check" role="alert">
							<strong>The metadata has errors; nothing was committed:</strong>
							<ul>
								{check.errors.map((message) => (
									<li key={message}>{message}</li>
								))}
							</ul>
						</div>
					) : check && check.warnings.length > 0 ? (
						<div id={ids.check} className="card-check muted">
							<strong>Warnings:</strong>
							<ul>
								{check.warnings.map((message) => (
									<li key={message}>{message}</li>
								))}
							</ul>
						</div>
					) : null}
				</div>
				<CommitFields
					summary={summary}
					proposed={proposed}
					description={description}
					busy={commit.busy}
					submitLabel={`Commit changes to ${branch}`}
					onSummary={setSummary}
					onDescription={setDescription}
					onCancel={onCancel}
				/>
				{problem ? (
					<p className="field-error" role="alert">
						{problem}
					</p>
				) : null}
				{commit.error ? <ErrorNotice title="The hub refused the commit">{commit.error}</ErrorNotice> : null}
			</form>
		</section>
	);
}

/** Deleting one file: a commit with a message. */
export function DeleteFileForm({
	modelId,
	branch,
	path,
	onCommitted,
	onCancel,
}: CommitTarget & { onCommitted: (result: CommitResult) => void; onCancel: () => void }) {
	const commit = useEditCommit({ modelId, branch, path }, onCommitted);
	const [summary, setSummary] = useState("");
	const [description, setDescription] = useState("");
	const [problem, setProblem] = useState<string>();
	const titleId = useId();
	const summaryRef = useRef<HTMLInputElement>(null);
	const proposed = defaultEditSummary(path, "delete");
	useEffect(() => summaryRef.current?.focus(), []);
	const submit = (event: FormEvent) => {
		event.preventDefault();
		const message = summary.trim() || proposed;
		const blocked = editSummaryProblem(message);
		setProblem(blocked);
		if (!blocked) void commit.send({ summary: message, description, deleted: [path] });
	};
	return (
		<section className="file-editor" aria-labelledby={titleId}>
			<h3 id={titleId} className="browse-subheading">
				Delete {path} <span className="muted">from {branch}</span>
			</h3>
			<form onSubmit={submit} noValidate>
				<CommitFields
					summaryRef={summaryRef}
					summary={summary}
					proposed={proposed}
					description={description}
					busy={commit.busy}
					submitLabel={`Delete and commit to ${branch}`}
					onSummary={setSummary}
					onDescription={setDescription}
					onCancel={onCancel}
				/>
				{problem ? (
					<p className="field-error" role="alert">
						{problem}
					</p>
				) : null}
				{commit.error ? <ErrorNotice title="The hub refused the commit">{commit.error}</ErrorNotice> : null}
			</form>
		</section>
	);
}
