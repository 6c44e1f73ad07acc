import { useEffect } from "react";
import { demoAssetUrl } from "../../api/catalogue";

/**
 * Fills the form's file with the task's demo picture or clip (so the form can be sent from the start),
 * unless the user picked one first. `onFile` gets the file and its name.
 */
export function useDemoFile(
	task: string | undefined,
	fileKind: "image" | "audio" | undefined,
	hubUrl: string,
	onFile: (file: Blob, name: string) => void,
): void {
	useEffect(() => {
		if (!fileKind || !task) return;
		const controller = new AbortController();
		// The task catalogue is loaded only here, for the tasks that take a file.
		import("../../view/demo-files")
			.then(async ({ demoFile }) => {
				const filename = await demoFile(task, fileKind);
				if (!filename) return;
				const response = await fetch(demoAssetUrl(filename, hubUrl), { signal: controller.signal });
				const blob = response.ok ? await response.blob() : undefined;
				if (blob && !controller.signal.aborted) onFile(blob, filename);
			})
			.catch(() => undefined);
		return () => controller.abort();
	}, [fileKind, task, hubUrl, onFile]);
}
