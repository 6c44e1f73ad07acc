import { Link } from "react-router";
import { listModels } from "../../api/models";
import { useApiOptions } from "../../hooks/useApiOptions";
import { useResource } from "../../hooks/useResource";
import { formatRelative } from "../../view/format";
import { modelHref } from "../../view/model";
import { pipelineName } from "../../view/pipelines";
import { ErrorNotice, Loading } from "../Status";

/** Models a profile lists: the most recently updated, the hub's page size; the Models page has the rest. */
const PROFILE_MODELS = 100;

/**
 * An account's models as whoever looks sees them: the hub lists private ones only to readers of the
 * namespace (the owner, the organisation's members), so this list is right for every viewer.
 */
export function ProfileModels({ author, count }: { author: string; count: number }) {
	const api = useApiOptions();
	const models = useResource(
		(signal) => listModels({ author, sort: "lastModified", limit: PROFILE_MODELS }, { ...api, signal }),
		[api, author],
	);
	const allHref = `/models?author=${encodeURIComponent(author)}`;
	return (
		<section aria-labelledby="profile-models-title" className="section">
			<h2 id="profile-models-title">
				Models <span className="muted">({count.toLocaleString("en-US")})</span>
			</h2>
			{models.status === "loading" ? <Loading label="Loading models" /> : null}
			{models.status === "error" ? (
				<ErrorNotice title="Could not list the models">{models.error.message}</ErrorNotice>
			) : null}
			{models.status === "ready" && models.data.models.length === 0 ? (
				<p className="muted">No models yet.</p>
			) : null}
			{models.status === "ready" && models.data.models.length > 0 ? (
				<ul className="model-list profile-models">
					{models.data.models.map((model) => (
						<li key={model.id} className="card model-card">
							<h3 className="card-title model-id">
								<Link to={modelHref(model.id)}>{model.id}</Link>
								{model.private ? <span className="badge badge-private">Private</span> : null}
							</h3>
							<p className="model-meta">
								{model.pipeline_tag ? <span>{pipelineName(model.pipeline_tag)}</span> : null}
								{model.lastModified ? <span>Updated {formatRelative(model.lastModified)}</span> : null}
							</p>
						</li>
					))}
				</ul>
			) : null}
			{models.status === "ready" && models.data.nextCursor !== undefined ? (
				<p>
					<Link to={allHref}>All models of {author}</Link>
				</p>
			) : null}
		</section>
	);
}
