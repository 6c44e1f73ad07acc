export function StatusBadge({ status }: { status: "live" | "staging" | string }) {
	return (
		<span className={`badge badge-status badge-status-${status === "live" ? "live" : "staging"}`}>
			<span aria-hidden="true" className="status-dot" />
			{status === "live" ? "Live" : "Staging"}
		</span>
	);
}

/**
 * "Mirrored from huggingface.co" on the page of a repository the hub reads from its upstream hub (mirror
 * mode: the info's `mirroredFrom`), linking to the repository's page there. Only an http(s) URL links.
 */
export function MirroredBadge({ upstream, path }: { upstream: string; path: string }) {
	let url: URL | undefined;
	try {
		url = new URL(upstream);
	} catch {
		url = undefined;
	}
	if (url === undefined || (url.protocol !== "http:" && url.protocol !== "https:")) {
		return <span className="badge badge-mirror">Mirrored from {upstream}</span>;
	}
	const base = url.href.replace(/\/+$/, "");
	return (
		<a
			className="badge badge-mirror"
			href={`${base}/${path}`}
			rel="noopener noreferrer"
			title={`This repository is read from ${base} and cached by this hub`}
		>
			Mirrored from {url.host}
		</a>
	);
}
