import { useState } from "react";
import type { Preview } from "../../../hooks/playground/usePlayground";
import { formatRequest, type CapturedRequest } from "../../../view/playground/requests";
import { Notice } from "../../Status";

/** The request the Send button will make (the client's dry run), credentials redacted. */
export function RequestPreview({ preview }: { preview: Preview }) {
	// Open on wide screens; on a phone it is one tap away instead of a screenful of HTTP.
	const [open] = useState(() => window.matchMedia?.("(min-width: 1000px)").matches ?? true);
	const text = preview.status === "ready" ? formatRequest(preview.request) : undefined;
	return (
		<details className="request-preview" open={open}>
			<summary>
				<h3 className="demo-heading">Request that will be sent</h3>
			</summary>
			{preview.status === "loading" || preview.status === "idle" ? (
				<p className="muted">Preparing the request…</p>
			) : null}
			{preview.status === "error" ? <Notice tone="warning">{preview.message}</Notice> : null}
			{text ? (
				<pre className="request-text" tabIndex={0} aria-label="Request preview" data-testid="request-preview">
					{text}
				</pre>
			) : null}
		</details>
	);
}

/** The request that really left, recorded by the client's fetch, marked when it differs from the preview. */
export function SentRequest({ sent, preview }: { sent: CapturedRequest | undefined; preview: Preview }) {
	if (!sent) return null;
	const sentText = formatRequest(sent);
	const previewText = preview.status === "ready" ? formatRequest(preview.request) : undefined;
	return (
		<details className="sent-request">
			<summary>
				Request sent {sentText === previewText || !previewText ? "" : "(differs from the preview)"}
			</summary>
			<pre className="request-text" tabIndex={0} aria-label="Sent request" data-testid="request-sent">
				{sentText}
			</pre>
		</details>
	);
}
