import { useEffect, useState } from "react";
import { prepareCall, type ClientOptions } from "../../inference/adapter";
import type { PlaygroundPlan } from "../../view/playground/plan";
import { describePrepared, type CapturedRequest } from "../../view/playground/requests";

export type Preview =
	| { status: "idle" | "loading" }
	| { status: "ready"; request: CapturedRequest }
	| { status: "error"; message: string };

/** How long typing pauses before the preview is prepared again. */
const PREVIEW_DELAY_MS = 150;

/**
 * The preview: the client's dry run (`prepareRequest`) of the call the Send button would make with
 * `args`, prepared again when they change. Idle while the call cannot be made (no provider; a task that
 * needs a file has none yet).
 */
export function useRequestPreview({
	plan,
	ready,
	args,
	options,
	fileType,
}: {
	plan: PlaygroundPlan;
	ready: boolean;
	args: Record<string, unknown>;
	options: ClientOptions & { inferenceProviderMapping?: unknown };
	fileType: string | undefined;
}): Preview {
	// The last answer of the dry run: shown until the next one arrives, so the text does not flicker while typing.
	const [answer, setAnswer] = useState<Preview>({ status: "loading" });
	const fn = plan.fn;
	useEffect(() => {
		if (!fn || !ready) return;
		let cancelled = false;
		const timer = setTimeout(() => {
			prepareCall(fn, args, options)
				.then((prepared) => describePrepared(prepared, fileType))
				.then(
					(request) => {
						if (!cancelled) setAnswer({ status: "ready", request });
					},
					(error: unknown) => {
						if (!cancelled)
							setAnswer({ status: "error", message: error instanceof Error ? error.message : String(error) });
					},
				);
		}, PREVIEW_DELAY_MS);
		return () => {
			cancelled = true;
			clearTimeout(timer);
		};
	}, [fn, ready, args, options, fileType]);
	return fn && ready ? answer : { status: "idle" };
}
