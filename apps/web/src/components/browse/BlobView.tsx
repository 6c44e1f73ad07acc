import { useEffect, useMemo, useState } from "react";
import type { RepoTreeEntry } from "@modelhub/hub/api";
import { getEntry, readFileStart } from "../../api/browse";
import { downloadWithToken } from "../../api/download";
import { ApiError } from "../../api/http";
import { fileUrl } from "../../api/models";
import { useApiOptions } from "../../hooks/useApiOptions";
import { useResource } from "../../hooks/useResource";
import { browseHref, pathCrumbs, shortCommitId } from "../../view/browse";
import {
	decodeShown,
	fileKind,
	highlightLanguage,
	MAX_HIGHLIGHTED_CHARS,
	MAX_INLINE_IMAGE_BYTES,
	MAX_SHOWN_BYTES,
	prettyJson,
	textLines,
	type FileKind,
} from "../../view/files";
import { formatBytes, formatRelative } from "../../view/format";
import { ErrorNotice, Loading, Notice } from "../Status";
import { useModule } from "../../hooks/useModule";

// Both load only for the files that need them, after the file is on screen as plain text: the
// highlighter (highlight.js) for code, the Markdown renderer (marked, DOMPurify) for a preview.
const loadHighlighter = () => import("./highlight");
const loadMarkdown = () => import("../model/ModelCard");
import { Link, useLocation, useNavigate } from "react-router";
import NotFound from "../../pages/NotFound";
import { isEditable } from "../../view/edit";
import type { CommitResult } from "../../api/commit";
import { useRepoType } from "../../hooks/useRepoType";
import { StorageMarks, storageKind } from "./StorageMarks";

// The editor loads when someone who may write opens it.
const loadEditor = () => import("./FileEditor");

interface LoadedFile {
	entry: Extract<RepoTreeEntry, { type: "file" }>;
	kind: FileKind;
	/** The shown text (text kinds), cut at MAX_SHOWN_BYTES. */
	text?: string;
	truncated: boolean;
	/** The SHA-256 of a binary file: the LFS object's, or computed from its bytes. */
	sha256?: string;
}

async function sha256Hex(bytes: Uint8Array): Promise<string | undefined> {
	// Web Crypto exists in secure contexts only (https, localhost).
	if (!globalThis.crypto?.subtle) return undefined;
	const digest = await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>);
	return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** A file of a revision (`/{id}/blob/{rev}/{path}`), shown by its kind, with its size and a download. */
export default function BlobView({
	modelId,
	revision,
	path,
	isPrivate,
	canEdit = false,
	onCommitted,
}: {
	modelId: string;
	revision: string;
	path: string;
	isPrivate: boolean;
	/** Whether the viewer may write and the revision is a branch: Edit and Delete are offered. */
	canEdit?: boolean;
	onCommitted?: () => void;
}) {
	const repoType = useRepoType();
	const api = useApiOptions();
	const navigate = useNavigate();
	// "Edit model card" arrives with the editor open.
	const arrival = (useLocation().state ?? {}) as { edit?: boolean };
	const [mode, setMode] = useState<EditMode>(arrival.edit ? "edit" : "view");
	// Bumped by a commit from the editor: the file is read again.
	const [version, setVersion] = useState(0);
	const [committed, setCommitted] = useState<string>();
	const file = useResource(
		async (signal): Promise<LoadedFile | undefined> => {
			const options = { ...api, signal };
			const entry = await getEntry(modelId, revision, path, options);
			if (entry?.type !== "file") return undefined;
			const byName = fileKind(path);
			if (byName === "image") return { entry, kind: "image", truncated: false };
			// LFS files are weights, archives and the like: never read them to show them.
			if (entry.lfs && byName === "binary")
				return { entry, kind: "binary", truncated: false, sha256: entry.lfs.oid };
			const bytes = await readFileStart(modelId, revision, path, MAX_SHOWN_BYTES, options);
			const kind = fileKind(path, bytes.subarray(0, 8000));
			if (kind === "binary") {
				const whole = bytes.length >= entry.size;
				return {
					entry,
					kind,
					truncated: false,
					sha256: entry.lfs?.oid ?? (whole ? await sha256Hex(bytes) : undefined),
				};
			}
			const shown = decodeShown(bytes, entry.size);
			return { entry, kind, text: shown.text, truncated: shown.truncated };
		},
		[modelId, revision, path, api],
		version,
	);
	const afterCommit = (action: "edit" | "delete") => (result: CommitResult) => {
		setMode("view");
		onCommitted?.();
		const note = `Committed ${shortCommitId(result.commitOid)} to ${revision}.`;
		if (action === "delete") {
			const folder = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "";
			void navigate(browseHref(modelId, { kind: "tree", revision, path: folder }, repoType), {
				state: { committed: `${note} ${path} was deleted.` },
			});
			return;
		}
		setCommitted(note);
		setVersion((value) => value + 1);
	};
	if (file.status === "loading") return <Loading label="Loading the file" />;
	if (file.status === "error") {
		if (file.error instanceof ApiError && file.error.status === 404)
			return <NotFound title="File not found" message={`${path} is not in ${modelId} at ${revision}.`} />;
		return <ErrorNotice title="Could not load the file">{file.error.message}</ErrorNotice>;
	}
	if (file.data === undefined)
		return <NotFound title="File not found" message={`${path} is not in ${modelId} at ${revision}.`} />;
	const editable =
		canEdit &&
		isEditable({
			kind: file.data.kind,
			truncated: file.data.truncated,
			size: file.data.entry.size,
			lfs: file.data.entry.lfs !== undefined,
		});
	return (
		<FileView
			modelId={modelId}
			revision={revision}
			file={file.data}
			isPrivate={isPrivate}
			edit={
				canEdit
					? {
							mode,
							editable,
							committed,
							setMode: (next) => {
								setCommitted(undefined);
								setMode(next);
							},
							onEdited: afterCommit("edit"),
							onDeleted: afterCommit("delete"),
						}
					: undefined
			}
		/>
	);
}

type EditMode = "view" | "edit" | "delete";

/** What the file view offers someone who may edit it. */
interface EditControls {
	mode: EditMode;
	/** Whether the text can be edited here (deleting is always offered). */
	editable: boolean;
	/** The last commit made from this view, announced. */
	committed?: string;
	setMode: (mode: EditMode) => void;
	onEdited: (result: CommitResult) => void;
	onDeleted: (result: CommitResult) => void;
}

function EditPanel({
	modelId,
	revision,
	path,
	edit,
}: {
	modelId: string;
	revision: string;
	path: string;
	edit: EditControls;
}) {
	const editor = useModule(loadEditor, edit.mode !== "view");
	if (edit.mode === "view") return null;
	if (!editor) return <Loading label="Loading the editor" />;
	const cancel = () => edit.setMode("view");
	return edit.mode === "edit" ? (
		<editor.FileEditor
			modelId={modelId}
			branch={revision}
			path={path}
			onCommitted={edit.onEdited}
			onCancel={cancel}
		/>
	) : (
		<editor.DeleteFileForm
			modelId={modelId}
			branch={revision}
			path={path}
			onCommitted={edit.onDeleted}
			onCancel={cancel}
		/>
	);
}

/** What every view of one loaded file needs: where it is, and whether fetching it takes the token. */
interface FileProps {
	modelId: string;
	revision: string;
	file: LoadedFile;
	isPrivate: boolean;
}

function FileView({ modelId, revision, file, isPrivate, edit }: FileProps & { edit?: EditControls }) {
	const repoType = useRepoType();
	const { entry } = file;
	const name = entry.path.slice(entry.path.lastIndexOf("/") + 1);
	const folders = pathCrumbs(entry.path).slice(0, -1);
	return (
		<section aria-labelledby="blob-title" className="blob-view">
			<nav aria-label="File path" className="breadcrumbs files-path">
				<ol>
					<li>
						<Link to={browseHref(modelId, { kind: "tree", revision, path: "" }, repoType)}>{modelId}</Link>
					</li>
					{folders.map((crumb) => (
						<li key={crumb.path}>
							<Link to={browseHref(modelId, { kind: "tree", revision, path: crumb.path }, repoType)}>
								{crumb.name}
							</Link>
						</li>
					))}
					<li>
						<span aria-current="page">{name}</span>
					</li>
				</ol>
			</nav>
			<div className="blob-header">
				<h2 id="blob-title" className="browse-heading">
					{name}
				</h2>
				<span className="muted">{formatBytes(entry.size)}</span>
				<StorageMarks entry={entry} />
				<div className="blob-actions">
					<DownloadLink
						modelId={modelId}
						revision={revision}
						path={entry.path}
						name={name}
						isPrivate={isPrivate}
					/>
					{edit && edit.mode === "view" ? (
						<>
							{edit.editable ? (
								<button
									type="button"
									className="btn btn-small"
									onMouseEnter={() => void loadEditor()}
									onFocus={() => void loadEditor()}
									onClick={() => edit.setMode("edit")}
								>
									Edit<span className="visually-hidden"> {entry.path}</span>
								</button>
							) : null}
							<button type="button" className="btn btn-small" onClick={() => edit.setMode("delete")}>
								Delete<span className="visually-hidden"> {entry.path}</span>
							</button>
						</>
					) : null}
				</div>
			</div>
			{edit?.committed ? (
				<p className="notice notice-info" role="status">
					{edit.committed}
				</p>
			) : null}
			{edit ? <EditPanel modelId={modelId} revision={revision} path={entry.path} edit={edit} /> : null}
			{entry.lastCommit ? (
				<p className="muted blob-commit">
					Last changed by{" "}
					<Link to={browseHref(modelId, { kind: "commit", revision: entry.lastCommit.id }, repoType)}>
						{entry.lastCommit.title}
					</Link>{" "}
					({shortCommitId(entry.lastCommit.id)}, {formatRelative(entry.lastCommit.date)})
				</p>
			) : null}
			{file.truncated ? (
				<Notice tone="warning">
					This file is {formatBytes(entry.size)}: the first {formatBytes(MAX_SHOWN_BYTES)} are shown. Download
					it to see it all.
				</Notice>
			) : null}
			{edit?.mode === "edit" ? null : (
				<FileBody modelId={modelId} revision={revision} file={file} isPrivate={isPrivate} />
			)}
		</section>
	);
}

function DownloadLink({
	modelId,
	revision,
	path,
	name,
	isPrivate,
}: {
	modelId: string;
	revision: string;
	path: string;
	name: string;
	isPrivate: boolean;
}) {
	const repoType = useRepoType();
	const { baseUrl, token } = useApiOptions();
	const [error, setError] = useState<string>();
	const url = fileUrl(modelId, revision, path, baseUrl, repoType);
	if (isPrivate && token)
		return (
			<>
				<button
					type="button"
					className="btn btn-small"
					onClick={() => {
						setError(undefined);
						downloadWithToken(url, token, name).catch((reason: unknown) =>
							setError(reason instanceof Error ? reason.message : String(reason)),
						);
					}}
				>
					Download
				</button>
				{error ? <ErrorNotice title="Could not download the file">{error}</ErrorNotice> : null}
			</>
		);
	return (
		<a className="btn btn-small" href={url} download={name}>
			Download
		</a>
	);
}

function FileBody({ modelId, revision, file, isPrivate }: FileProps) {
	const path = file.entry.path;
	switch (file.kind) {
		case "image":
			return <ImageView modelId={modelId} revision={revision} file={file} isPrivate={isPrivate} />;
		case "binary":
			return (
				<dl className="binary-facts">
					<div>
						<dt>Size</dt>
						<dd>
							{formatBytes(file.entry.size)} ({file.entry.size.toLocaleString("en-US")} bytes)
						</dd>
					</div>
					<div>
						<dt>SHA-256</dt>
						<dd>
							<code className="sha">{file.sha256 ?? "not available"}</code>
						</dd>
					</div>
					<div>
						<dt>Kind</dt>
						<dd>{storageKind(file.entry)}: not shown</dd>
					</div>
				</dl>
			);
		case "markdown":
			return <MarkdownView modelId={modelId} revision={revision} text={file.text ?? ""} path={path} />;
		case "json": {
			const pretty = file.truncated ? undefined : prettyJson(file.text ?? "");
			return <CodeView text={pretty ?? file.text ?? ""} language="json" label={path} />;
		}
		default:
			return <CodeView text={file.text ?? ""} language={highlightLanguage(path)} label={path} />;
	}
}

function MarkdownView({
	modelId,
	revision,
	text,
	path,
}: {
	modelId: string;
	revision: string;
	text: string;
	path: string;
}) {
	const [source, setSource] = useState(false);
	const repoType = useRepoType();
	const markdown = useModule(loadMarkdown, !source);
	const html = useMemo(
		() =>
			source || !markdown
				? undefined
				: markdown.renderCard(text, modelId, window.location.origin, {
						revision,
						folder: path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "",
						repoType,
					}),
		[source, text, modelId, markdown, revision, path, repoType],
	);
	return (
		<>
			<div className="segmented" role="group" aria-label="Show the file as">
				<button
					type="button"
					className="btn btn-small"
					aria-pressed={!source}
					onClick={() => setSource(false)}
				>
					Preview
				</button>
				<button type="button" className="btn btn-small" aria-pressed={source} onClick={() => setSource(true)}>
					Source
				</button>
			</div>
			{source ? (
				<CodeView text={text} language="markdown" label={path} />
			) : html === undefined ? (
				<Loading label="Rendering the file" />
			) : (
				// Sanitised by DOMPurify (renderCard).
				<div className="markdown blob-markdown" dangerouslySetInnerHTML={{ __html: html }} />
			)}
		</>
	);
}

/** Numbered, highlighted text; the text part scrolls sideways and takes keyboard focus to do so. */
function CodeView({ text, language, label }: { text: string; language: string | undefined; label: string }) {
	const lines = useMemo(() => textLines(text), [text]);
	const highlight = language !== undefined && text.length <= MAX_HIGHLIGHTED_CHARS;
	const highlighter = useModule(loadHighlighter, highlight);
	const html = useMemo(
		() => (highlight && language && highlighter ? highlighter.highlightHtml(text, language) : undefined),
		[text, language, highlight, highlighter],
	);
	const numbers = useMemo(() => lines.map((_, index) => index + 1).join("\n"), [lines]);
	return (
		<div className="code-view" role="region" aria-label={`Contents of ${label}`} tabIndex={0}>
			<pre className="line-numbers" aria-hidden="true">
				{numbers}
			</pre>
			{html !== undefined ? (
				<pre className="code-text hljs">
					<code dangerouslySetInnerHTML={{ __html: html }} />
				</pre>
			) : (
				<pre className="code-text">
					<code>{text}</code>
				</pre>
			)}
		</div>
	);
}

function ImageView({ modelId, revision, file, isPrivate }: FileProps) {
	const repoType = useRepoType();
	const { baseUrl, token } = useApiOptions();
	const url = fileUrl(modelId, revision, file.entry.path, baseUrl, repoType);
	const [src, setSrc] = useState<string | undefined>(isPrivate && token ? undefined : url);
	const tooLarge = file.entry.size > MAX_INLINE_IMAGE_BYTES;
	useEffect(() => {
		if (!(isPrivate && token) || tooLarge) return;
		// A private picture: fetched with the token (never in a URL) and shown from a blob URL.
		const controller = new AbortController();
		let objectUrl: string | undefined;
		fetch(url, { headers: { Authorization: `Bearer ${token}` }, signal: controller.signal })
			.then((response) => (response.ok ? response.blob() : undefined))
			.then((blob) => {
				if (!blob) return;
				objectUrl = URL.createObjectURL(blob);
				setSrc(objectUrl);
			})
			.catch(() => undefined);
		return () => {
			controller.abort();
			if (objectUrl) URL.revokeObjectURL(objectUrl);
		};
	}, [url, isPrivate, token, tooLarge]);
	if (tooLarge) return <p className="muted">This picture is too large to show here: download it.</p>;
	return (
		<div className="image-view">
			{src ? (
				<img src={src} alt={`${file.entry.path} at ${revision}`} />
			) : (
				<Loading label="Loading the picture" />
			)}
		</div>
	);
}
