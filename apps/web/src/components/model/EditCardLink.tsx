import { Link } from "react-router";
import type { RepoType } from "@modelhub/tasks/repositories";
import { browseHref } from "../../view/browse";

/**
 * "Edit model card" / "Edit dataset card": the README.md file view on main with its editor open (the
 * model and dataset pages show it to those who may write).
 */
export function EditCardLink({ id, repoType }: { id: string; repoType: RepoType }) {
	const cardFile = browseHref(id, { kind: "blob", revision: "main", path: "README.md" }, repoType);
	return (
		<div className="card-actions">
			<Link className="btn btn-small" to={cardFile} state={{ edit: true }}>
				Edit {repoType} card
			</Link>
		</div>
	);
}
