import { lazy, Suspense, useCallback, useId, useState } from "react";
import { downloadWithToken } from "../../api/download";
import type { RepoTreeEntry } from "@modelhub/hub/api";
import { fileUrl, listRefs, listTree } from "../../api/models";
import { useApiOptions } from "../../hooks/useApiOptions";
import { useResource } from "../../hooks/useResource";
import { formatBytes } from "../../view/format";
import { ErrorNotice, Loading } from "../Status";

// The upload panel (drop zone, pending list, progress) loads when an owner opens it.
const UploadPanel = lazy(() => import("./UploadPanel").then((module) => ({ default: module.UploadPanel })));

/**
 * "Files and versions": a folder of a revision with sizes and download links, a revision switcher;
 * for those who may write, "Add files" (the upload panel), after which the list shows the new files.
 */
export function FilesTab({
	modelId,
	canWrite = false,
	isPrivate = false,
	initialUpload = false,
}: {
	modelId: string;
	canWrite?: boolean;
	/** Private files need the hub token: they are downloaded through fetch, not a plain link. */
	isPrivate?: boolean;
	initialUpload?: boolean;
}) {
	const api = useApiOptions();
	const [revision, setRevision] = useState("main");
	const [folder, setFolder] = useState("");
	const [uploading, setUploading] = useState(initialUpload && canWrite);
	// Bumped by a commit: the file list and the branches are read again.
	const [version, setVersion] = useState(0);
	const revisionId = useId();
	const uploadId = useId();
	const refs = useResource(
		(signal) => listRefs(modelId, { ...api, signal }),
		[modelId, api.baseUrl, api.token, version],
	);
	const tree = useResource(
		(signal) => listTree(modelId, revision, folder, { ...api, signal }),
		[modelId, revision, folder, api.baseUrl, api.token, version],
	);
	const onCommitted = useCallback(() => {
		setRevision("main");
		setVersion((value) => value + 1);
	}, []);
	const parts = folder ? folder.split("/") : [];
	const revisions =
		refs.status === "ready"
			? [
					...refs.data.branches.map((ref) => ({ name: ref.name, kind: "branch" })),
					...refs.data.tags.map((ref) => ({ name: ref.name, kind: "tag" })),
				]
			: [{ name: "main", kind: "branch" }];

	return (
		<div className="files-tab">
			<div className="files-toolbar">
				<div className="field field-inline">
					<label htmlFor={revisionId}>Revision</label>
					<select
						id={revisionId}
						className="input"
						value={revision}
						onChange={(event) => {
							setRevision(event.target.value);
							setFolder("");
						}}
					>
						{revisions.map((ref) => (
							<option key={`${ref.kind}:${ref.name}`} value={ref.name}>
								{ref.name} ({ref.kind})
							</option>
						))}
					</select>
				</div>
				<nav aria-label="Folder" className="breadcrumbs files-path">
					<ol>
						<li>
							{folder ? (
								<button type="button" className="link-button" onClick={() => setFolder("")}>
									{modelId}
								</button>
							) : (
								<span aria-current="page">{modelId}</span>
							)}
						</li>
						{parts.map((part, index) => {
							const path = parts.slice(0, index + 1).join("/");
							return (
								<li key={path}>
									{index === parts.length - 1 ? (
										<span aria-current="page">{part}</span>
									) : (
										<button type="button" className="link-button" onClick={() => setFolder(path)}>
											{part}
										</button>
									)}
								</li>
							);
						})}
					</ol>
				</nav>
				{canWrite ? (
					<button
						type="button"
						className="btn btn-small files-add"
						aria-expanded={uploading}
						aria-controls={uploadId}
						onClick={() => setUploading(!uploading)}
					>
						<span aria-hidden="true">+ </span>Add files
					</button>
				) : null}
			</div>
			{canWrite && uploading ? (
				<div id={uploadId}>
					<Suspense fallback={<Loading label="Loading the upload form" />}>
						<UploadPanel modelId={modelId} api={api} folder={folder} onCommitted={onCommitted} />
					</Suspense>
				</div>
			) : (
				<div id={uploadId} hidden />
			)}
			{tree.status === "loading" ? <Loading label="Loading files" /> : null}
			{tree.status === "error" ? (
				<ErrorNotice title="Could not list the files">{tree.error.message}</ErrorNotice>
			) : null}
			{tree.status === "ready" ? (
				<FileTable
					modelId={modelId}
					revision={revision}
					entries={tree.data}
					onOpen={setFolder}
					token={isPrivate ? api.token : undefined}
				/>
			) : null}
		</div>
	);
}

function FileTable({
	modelId,
	revision,
	entries,
	onOpen,
	token,
}: {
	modelId: string;
	revision: string;
	entries: RepoTreeEntry[];
	onOpen: (folder: string) => void;
	/** Set for a private model: downloads go through fetch with the token. */
	token?: string;
}) {
	const { baseUrl } = useApiOptions();
	const [downloadError, setDownloadError] = useState<string>();
	if (entries.length === 0) return <p className="muted">This folder is empty.</p>;
	const total = entries.reduce((sum, entry) => sum + (entry.type === "file" ? entry.size : 0), 0);
	return (
		<>
			{downloadError ? <ErrorNotice title="Could not download the file">{downloadError}</ErrorNotice> : null}
			<table className="file-table">
				<caption className="visually-hidden">
					Files of {modelId} at {revision}
				</caption>
				<thead>
					<tr>
						<th scope="col">Name</th>
						<th scope="col" className="numeric">
							Size
						</th>
						<th scope="col">
							<span className="visually-hidden">Download</span>
						</th>
					</tr>
				</thead>
				<tbody>
					{entries.map((entry) => {
						const name = entry.path.slice(entry.path.lastIndexOf("/") + 1);
						return (
							<tr key={entry.path} data-type={entry.type}>
								<th scope="row">
									{entry.type === "directory" ? (
										<button type="button" className="link-button" onClick={() => onOpen(entry.path)}>
											<span aria-hidden="true">📁 </span>
											{name}/
										</button>
									) : (
										<span>
											{name}
											{entry.lfs ? <span className="badge badge-lfs">LFS</span> : null}
										</span>
									)}
								</th>
								<td className="numeric">{entry.type === "file" ? formatBytes(entry.size) : ""}</td>
								<td>
									{entry.type === "file" && token ? (
										<button
											type="button"
											className="link-button"
											onClick={() => {
												setDownloadError(undefined);
												downloadWithToken(fileUrl(modelId, revision, entry.path, baseUrl), token, name).catch(
													(error: unknown) =>
														setDownloadError(
															`${name}: ${error instanceof Error ? error.message : String(error)}`,
														),
												);
											}}
										>
											Download<span className="visually-hidden"> {name}</span>
										</button>
									) : null}
									{entry.type === "file" && !token ? (
										<a href={fileUrl(modelId, revision, entry.path, baseUrl)} download={name}>
											Download<span className="visually-hidden"> {name}</span>
										</a>
									) : null}
								</td>
							</tr>
						);
					})}
				</tbody>
				<tfoot>
					<tr>
						<th scope="row">{entries.length === 1 ? "1 entry" : `${entries.length} entries`}</th>
						<td className="numeric">{formatBytes(total)}</td>
						<td />
					</tr>
				</tfoot>
			</table>
		</>
	);
}
