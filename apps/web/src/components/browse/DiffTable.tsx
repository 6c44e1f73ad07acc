import { diffStats, type DiffRow } from "../../view/diff-rows";

/**
 * One file's diff rows as a table (old and new line numbers, the change, the text) in a scrolling,
 * focusable region named after the file: the commit page's and a pull request's changed files.
 */
export function DiffTable({ path, rows }: { path: string; rows: readonly DiffRow[] }) {
	const stats = diffStats(rows);
	return (
		<div className="diff-scroll" role="region" aria-label={`Changes to ${path}`} tabIndex={0}>
			<table className="diff-table">
				<caption className="visually-hidden">
					{path}: {stats.added} lines added, {stats.removed} removed
				</caption>
				<thead className="visually-hidden">
					<tr>
						<th scope="col">Old line</th>
						<th scope="col">New line</th>
						<th scope="col">Change</th>
						<th scope="col">Text</th>
					</tr>
				</thead>
				<tbody>
					{rows.map((row, index) => (
						<tr key={index} className={`diff-${row.kind}`}>
							<td className="diff-num">{row.oldLine ?? ""}</td>
							<td className="diff-num">{row.newLine ?? ""}</td>
							<td className="diff-sign">
								{row.kind === "added" ? (
									<>
										<span aria-hidden="true">+</span>
										<span className="visually-hidden">added</span>
									</>
								) : row.kind === "removed" ? (
									<>
										<span aria-hidden="true">−</span>
										<span className="visually-hidden">removed</span>
									</>
								) : null}
							</td>
							<td className="diff-text">{row.text}</td>
						</tr>
					))}
				</tbody>
			</table>
		</div>
	);
}
