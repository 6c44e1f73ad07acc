/**
 * The Community tab of a model or dataset page (`/{id}/discussions`, `/{id}/discussions/{num}`,
 * `/{id}/discussions/{num}/files`, as on the public hub): a chunk of its own, loaded with the tab. The
 * thread (with the Markdown renderer) and the changed files are chunks of their own again, so the list
 * loads only what it shows.
 */
import { lazy, Suspense } from "react";
import type { CommunityView } from "../../view/browse";
import { Loading } from "../Status";
import { DiscussionList } from "./DiscussionList";

const DiscussionThread = lazy(() =>
	import("./DiscussionThread").then((module) => ({ default: module.DiscussionThread })),
);
const PullRequestFiles = lazy(() =>
	import("./PullRequestFiles").then((module) => ({ default: module.PullRequestFiles })),
);

export default function Community({ repoId, view }: { repoId: string; view: CommunityView }) {
	switch (view.kind) {
		case "discussions":
			return <DiscussionList repoId={repoId} />;
		case "discussion":
			return (
				<Suspense fallback={<Loading label="Loading the discussion" />}>
					<DiscussionThread key={view.num} repoId={repoId} num={view.num} />
				</Suspense>
			);
		case "discussion-files":
			return (
				<Suspense fallback={<Loading label="Loading the changes" />}>
					<PullRequestFiles key={view.num} repoId={repoId} num={view.num} />
				</Suspense>
			);
	}
}
