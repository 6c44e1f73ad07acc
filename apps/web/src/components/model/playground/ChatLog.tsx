import type { ChatTurn } from "../../../view/playground/run";

/** The conversation so far; failed and stopped turns offer Retry and Remove. */
export function ChatLog({
	turns,
	running,
	onRetry,
	onRemove,
}: {
	turns: ChatTurn[];
	running: boolean;
	onRetry: (id: number) => void;
	onRemove: (id: number) => void;
}) {
	if (turns.length === 0) return null;
	return (
		<ol className="chat-log" aria-label="Conversation" aria-live="polite">
			{turns.map((turn) => (
				<li key={turn.id} className="chat-turn" data-status={turn.status}>
					<div className="chat-message chat-user">
						<span className="chat-role">You</span>
						<p>{turn.user}</p>
					</div>
					{turn.answer || turn.status === "streaming" ? (
						<div
							className="chat-message chat-assistant"
							data-streaming={turn.status === "streaming" ? "true" : undefined}
						>
							<span className="chat-role">Model</span>
							<p data-testid={turn.status === "streaming" ? "chat-streaming" : undefined}>
								{turn.answer}
								{turn.status === "streaming" ? <span className="cursor" aria-hidden="true" /> : null}
							</p>
						</div>
					) : null}
					{turn.status === "failed" || turn.status === "stopped" ? (
						<div className="chat-turn-actions">
							<span className="small">
								{turn.status === "stopped" ? "Stopped" : "Failed"}: not part of the conversation sent next.
							</span>
							<button
								type="button"
								className="btn btn-small"
								disabled={running}
								onClick={() => onRetry(turn.id)}
							>
								Retry this message
							</button>
							<button type="button" className="btn btn-small btn-secondary" onClick={() => onRemove(turn.id)}>
								Remove
							</button>
						</div>
					) : null}
				</li>
			))}
		</ol>
	);
}
