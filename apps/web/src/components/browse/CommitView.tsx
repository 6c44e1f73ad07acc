import { useMemo, useState } from "react";
import { Link } from "react-router";
import type { RepoCommitChange, RepoCommitDetail } from "@modelhub/hub/api";
import { getCommit, readFileStart } from "../../api/browse";
import { ApiError } from "../../api/http";
import { useApiOptions } from "../../hooks/useApiOptions";
import { useDocumentTitle } from "../../hooks/useDocumentTitle";
import { useResource } from "../../hooks/useResource";
import { browseHref, browseTitle, shortCommitId } from "../../view/browse";
import { decodeShown, fileKind } from "../../view/files";
import { diffRows } from "../../view/diff";
import { formatBytes, formatDate } from "../../view/format";
import NotFound from "../../pages/NotFound";
import { ErrorNotice, Loading } from "../Status";
import { DiffTable } from "./DiffTable";
import { useRepoType } from "../../hooks/useRepoType";

/** Text files are diffed up to this size on each side; larger ones show their sizes only. */
const MAX_DIFFED_BYTES = 1024 * 1024;
/** Diffs opened with the page; the others open on demand. */
const OPEN_DIFFS = 20;

/** A commit (`/{id}/commit/{sha}`): its title, message, author, date, parent and changed files with diffs. */
export default function CommitView({ modelId, revision }: { modelId: string; revision: string }) {
	const api = useApiOptions();
	const commit = useResource(
		(signal) => getCommit(modelId, revision, { ...api, signal }),
		[modelId, revision, api],
	);
	useDocumentTitle(
		commit.status === "ready"
			? browseTitle(modelId, { kind: "commit", revision }, commit.data)
			: browseTitle(modelId, { kind: "commit", revision }),
	);
	if (commit.status === "loading") return <Loading label="Loading the commit" />;
	if (commit.status === "error") {
		if (commit.error instanceof ApiError && commit.error.status === 404)
			return <NotFound title="Commit not found" message={`${modelId} has no commit ${revision}.`} />;
		return <ErrorNotice title="Could not load the commit">{commit.error.message}</ErrorNotice>;
	}
	return <CommitDetails modelId={modelId} data={commit.data} />;
}

/** The commit's text and its changed files, a page of 1000 at a time ("More changed files"). */
function CommitDetails({ modelId, data }: { modelId: string; data: RepoCommitDetail & { next?: string } }) {
	const repoType = useRepoType();
	const api = useApiOptions();
	const [more, setMore] = useState<{ files: RepoCommitChange[]; next?: string }>({
		files: [],
		...(data.next ? { next: data.next } : {}),
	});
	const [loadingMore, setLoadingMore] = useState(false);
	const [moreError, setMoreError] = useState<string>();
	const files = useMemo(() => [...data.files, ...more.files], [data.files, more.files]);
	const parent = data.parents[0];
	const loadMore = () => {
		if (!more.next) return;
		setLoadingMore(true);
		setMoreError(undefined);
		getCommit(modelId, data.id, { ...api, next: more.next }).then(
			(page) => {
				setMore((previous) => ({
					files: [...previous.files, ...page.files],
					...(page.next ? { next: page.next } : {}),
				}));
				setLoadingMore(false);
			},
			(error: unknown) => {
				setMoreError(error instanceof Error ? error.message : String(error));
				setLoadingMore(false);
			},
		);
	};
	return (
		<section aria-labelledby="commit-title" className="commit-view">
			<h2 id="commit-title" className="browse-heading">
				{data.title || "(no title)"}
			</h2>
			{data.message && data.message !== data.title ? <p className="commit-message">{data.message}</p> : null}
			<p className="muted commit-meta">
				{data.authors.map((author) => author.user).join(", ")} committed on{" "}
				<time dateTime={data.date}>{formatDate(data.date)}</time> · commit{" "}
				<code>{shortCommitId(data.id)}</code>
				{parent ? (
					<>
						{" "}
						· parent{" "}
						<Link to={browseHref(modelId, { kind: "commit", revision: parent }, repoType)}>
							<code>{shortCommitId(parent)}</code>
						</Link>
					</>
				) : (
					" · first commit"
				)}{" "}
				·{" "}
				<Link to={browseHref(modelId, { kind: "tree", revision: data.id, path: "" }, repoType)}>
					Browse files
				</Link>
			</p>
			<h3 className="browse-subheading">
				{files.length === 1 ? "1 file changed" : `${files.length.toLocaleString("en-US")} files changed`}
				{more.next ? " so far (there are more)" : ""}
			</h3>
			<ul className="changed-files">
				{files.map((change, index) => (
					<li key={change.path}>
						<FileDiff
							modelId={modelId}
							commitId={data.id}
							parentId={parent}
							change={change}
							initiallyOpen={index < OPEN_DIFFS}
						/>
					</li>
				))}
			</ul>
			{moreError ? <ErrorNotice title="Could not list more changed files">{moreError}</ErrorNotice> : null}
			{more.next ? (
				<button type="button" className="btn btn-small" disabled={loadingMore} onClick={loadMore}>
					More changed files
				</button>
			) : null}
			{loadingMore ? <Loading label="Loading more changed files" /> : null}
		</section>
	);
}

const STATUS_LABEL: Record<RepoCommitChange["status"], string> = {
	added: "Added",
	modified: "Modified",
	deleted: "Deleted",
};

function FileDiff({
	modelId,
	commitId,
	parentId,
	change,
	initiallyOpen,
}: {
	modelId: string;
	commitId: string;
	parentId: string | undefined;
	change: RepoCommitChange;
	initiallyOpen: boolean;
}) {
	const repoType = useRepoType();
	const [open, setOpen] = useState(initiallyOpen);
	const sides = [change.before, change.after].filter((side) => side !== undefined);
	const isLfs = sides.some((side) => side.lfs !== undefined);
	const tooLarge = sides.some((side) => side.size > MAX_DIFFED_BYTES);
	const textual = fileKind(change.path) !== "image" && fileKind(change.path) !== "binary";
	return (
		<details
			className="file-diff"
			open={open}
			onToggle={(event) => setOpen((event.currentTarget as HTMLDetailsElement).open)}
		>
			<summary>
				<span className={`change-status change-${change.status}`}>{STATUS_LABEL[change.status]}</span>{" "}
				<span className="change-path">{change.path}</span>
				{isLfs ? <span className="badge badge-lfs">LFS</span> : null}
			</summary>
			{open ? (
				isLfs || tooLarge ? (
					<p className="muted diff-note">
						{isLfs ? "Stored with LFS" : "Too large to compare"}:{" "}
						{change.before ? formatBytes(change.before.size) : "—"} →{" "}
						{change.after ? formatBytes(change.after.size) : "—"}.{" "}
						{change.after ? (
							<Link
								to={browseHref(modelId, { kind: "blob", revision: commitId, path: change.path }, repoType)}
							>
								View file
							</Link>
						) : null}
					</p>
				) : (
					<TextDiff
						modelId={modelId}
						commitId={commitId}
						parentId={parentId}
						change={change}
						textual={textual}
					/>
				)
			) : null}
		</details>
	);
}

function TextDiff({
	modelId,
	commitId,
	parentId,
	change,
	textual,
}: {
	modelId: string;
	commitId: string;
	parentId: string | undefined;
	change: RepoCommitChange;
	textual: boolean;
}) {
	const api = useApiOptions();
	const texts = useResource(
		async (signal) => {
			const options = { ...api, signal };
			const read = async (revision: string | undefined, size: number | undefined) => {
				if (revision === undefined || size === undefined) return "";
				const bytes = await readFileStart(modelId, revision, change.path, MAX_DIFFED_BYTES, options);
				if (!textual && bytes.subarray(0, 8000).includes(0)) return undefined;
				return decodeShown(bytes, size).text;
			};
			const [before, after] = await Promise.all([
				read(change.before ? parentId : undefined, change.before?.size),
				read(change.after ? commitId : undefined, change.after?.size),
			]);
			return before === undefined || after === undefined ? undefined : { before, after };
		},
		[modelId, commitId, parentId, change.path, change.before, change.after, textual, api],
	);
	const rows = useMemo(
		() => (texts.status === "ready" && texts.data ? diffRows(texts.data.before, texts.data.after) : []),
		[texts],
	);
	if (texts.status === "loading") return <Loading label="Loading the diff" />;
	if (texts.status === "error")
		return <ErrorNotice title="Could not load the diff">{texts.error.message}</ErrorNotice>;
	if (texts.data === undefined) return <p className="muted diff-note">Binary file: not compared.</p>;
	if (rows.length === 0) return <p className="muted diff-note">Empty file.</p>;
	return <DiffTable path={change.path} rows={rows} />;
}
