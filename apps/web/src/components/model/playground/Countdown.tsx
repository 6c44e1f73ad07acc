import { useEffect, useState } from "react";
import { PLAYGROUND_TIMEOUT_MS } from "../../../hooks/playground/usePlayground";

/** The time left before the call is given up, counted down while it runs. */
export function Countdown({ deadline, id }: { deadline: number | undefined; id: string }) {
	if (deadline === undefined) {
		return (
			<span className="muted small" id={id}>
				Times out after {PLAYGROUND_TIMEOUT_MS / 1000} s without an answer.
			</span>
		);
	}
	// Keyed by the deadline: a new deadline (each streamed token pushes it back) starts a fresh clock,
	// instead of an effect resetting it.
	return <Ticking key={deadline} deadline={deadline} id={id} />;
}

function Ticking({ deadline, id }: { deadline: number; id: string }) {
	const [now, setNow] = useState(() => Date.now());
	useEffect(() => {
		const timer = setInterval(() => setNow(Date.now()), 1000);
		return () => clearInterval(timer);
	}, []);
	const left = Math.max(0, Math.ceil((deadline - now) / 1000));
	return (
		<span className="muted small" id={id} data-testid="timeout-countdown">
			Times out in {left} s
		</span>
	);
}
