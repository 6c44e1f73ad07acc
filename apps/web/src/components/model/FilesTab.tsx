import { lazy, Suspense, useCallback, useId, useState } from "react";
import { Link, useLocation, useNavigate } from "react-router";
import { listFolder } from "../../api/browse";
import { downloadWithToken } from "../../api/download";
import type { RepoTreeEntry } from "@modelhub/hub/api";
import { fileUrl } from "../../api/models";
import { useApiOptions } from "../../hooks/useApiOptions";
import { useResource } from "../../hooks/useResource";
import { browseHref, pathCrumbs, shortCommitId } from "../../view/browse";
import { formatBytes, formatRelative } from "../../view/format";
import { StorageMarks } from "../browse/StorageMarks";
import { ErrorNotice, Loading } from "../Status";
import { useRepoType } from "../../hooks/useRepoType";

// The upload panel (drop zone, pending list, progress) loads when an owner opens it.
const UploadPanel = lazy(() => import("./UploadPanel").then((module) => ({ default: module.UploadPanel })));

/**
 * A folder of a revision (`/{id}/tree/{rev}/{path}`): breadcrumbs, its entries with sizes, LFS marks,
 * the last commit of each and download links, pages of 50 ("More files"); for those who may write,
 * "Add files" (the upload panel), after which the page shows main's files.
 */
export function FilesTab({
	modelId,
	revision,
	folder,
	canWrite = false,
	isPrivate = false,
	initialUpload = false,
	onCommitted: onPageCommitted,
}: {
	modelId: string;
	revision: string;
	folder: string;
	canWrite?: boolean;
	/** Private files need the hub token: they are downloaded through fetch, not a plain link. */
	isPrivate?: boolean;
	initialUpload?: boolean;
	/** A commit landed (the page reads the model again). */
	onCommitted?: () => void;
}) {
	const repoType = useRepoType();
	const api = useApiOptions();
	const navigate = useNavigate();
	const [uploading, setUploading] = useState(initialUpload && canWrite);
	// Bumped by a commit: the file list is read again.
	const [version, setVersion] = useState(0);
	const [more, setMore] = useState<{ entries: RepoTreeEntry[]; next?: string }>({ entries: [] });
	const [moreError, setMoreError] = useState<string>();
	const uploadId = useId();
	// A deletion from the file view lands here, and says what it committed.
	const arrival = (useLocation().state ?? {}) as { committed?: string };
	const tree = useResource(
		(signal) => listFolder(modelId, revision, folder, { ...api, signal }),
		[modelId, revision, folder, api],
		version,
	);
	const onCommitted = useCallback(() => {
		setMore({ entries: [] });
		setVersion((value) => value + 1);
		onPageCommitted?.();
		void navigate(browseHref(modelId, { kind: "tree", revision: "main", path: folder }, repoType));
	}, [navigate, modelId, folder, onPageCommitted, repoType]);
	const crumbs = pathCrumbs(folder);
	const next =
		more.next ?? (more.entries.length === 0 && tree.status === "ready" ? tree.data.next : undefined);

	return (
		<div className="files-tab">
			<div className="files-toolbar">
				<nav aria-label="Folder" className="breadcrumbs files-path">
					<ol>
						<li>
							{folder ? (
								<Link to={browseHref(modelId, { kind: "tree", revision, path: "" }, repoType)}>
									{modelId}
								</Link>
							) : (
								<span aria-current="page">{modelId}</span>
							)}
						</li>
						{crumbs.map((crumb, index) => (
							<li key={crumb.path}>
								{index === crumbs.length - 1 ? (
									<span aria-current="page">{crumb.name}</span>
								) : (
									<Link to={browseHref(modelId, { kind: "tree", revision, path: crumb.path }, repoType)}>
										{crumb.name}
									</Link>
								)}
							</li>
						))}
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
			{arrival.committed ? (
				<p className="notice notice-info" role="status">
					{arrival.committed}
				</p>
			) : null}
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
					entries={[...tree.data.items, ...more.entries]}
					token={isPrivate ? api.token : undefined}
				/>
			) : null}
			{moreError ? <ErrorNotice title="Could not list more files">{moreError}</ErrorNotice> : null}
			{next ? (
				<button
					type="button"
					className="btn btn-small"
					onClick={() => {
						setMoreError(undefined);
						listFolder(modelId, revision, folder, { ...api, next }).then(
							(page) =>
								setMore((previous) => ({ entries: [...previous.entries, ...page.items], next: page.next })),
							(error: unknown) => setMoreError(error instanceof Error ? error.message : String(error)),
						);
					}}
				>
					More files
				</button>
			) : null}
		</div>
	);
}

function FileTable({
	modelId,
	revision,
	entries,
	token,
}: {
	modelId: string;
	revision: string;
	entries: RepoTreeEntry[];
	/** Set for a private model: downloads go through fetch with the token. */
	token?: string;
}) {
	const repoType = useRepoType();
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
						<th scope="col">Last commit</th>
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
										<Link to={browseHref(modelId, { kind: "tree", revision, path: entry.path }, repoType)}>
											<span aria-hidden="true">📁 </span>
											{name}/
										</Link>
									) : (
										<span>
											<Link to={browseHref(modelId, { kind: "blob", revision, path: entry.path }, repoType)}>
												{name}
											</Link>
											<StorageMarks entry={entry} />
										</span>
									)}
								</th>
								<td className="file-commit">
									{entry.lastCommit ? (
										<>
											<Link
												to={browseHref(modelId, { kind: "commit", revision: entry.lastCommit.id }, repoType)}
												title={`Commit ${shortCommitId(entry.lastCommit.id)}`}
											>
												{entry.lastCommit.title}
											</Link>{" "}
											<span className="muted">{formatRelative(entry.lastCommit.date)}</span>
										</>
									) : null}
								</td>
								<td className="numeric">{entry.type === "file" ? formatBytes(entry.size) : ""}</td>
								<td>
									{entry.type === "file" && token ? (
										<button
											type="button"
											className="link-button"
											onClick={() => {
												setDownloadError(undefined);
												downloadWithToken(
													fileUrl(modelId, revision, entry.path, baseUrl, repoType),
													token,
													name,
												).catch((error: unknown) =>
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
										<a href={fileUrl(modelId, revision, entry.path, baseUrl, repoType)} download={name}>
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
						<td />
						<td className="numeric">{formatBytes(total)}</td>
						<td />
					</tr>
				</tfoot>
			</table>
		</>
	);
}
