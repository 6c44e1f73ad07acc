import { lazy, Suspense, useMemo } from "react";
import type { ModelDetail } from "../../api/models";
import { providerEntries } from "../../view/providers";
import { Loading } from "../Status";
import { ProvidersPanel } from "./ProvidersPanel";

// The playground (with the inference client) loads on demand, after the panel.
const Playground = lazy(() => import("./playground/Playground"));

/**
 * The model page's sidebar: the inference providers' snippets and the playground. A chunk of its own,
 * which the page loads when the browser is first idle (pages/Model.tsx), so the provider catalogue and
 * the panel are not in the page's first load. The chosen provider is the page's state, so it survives
 * the sidebar moving between the aside and the "Inference" tab.
 */
export default function ModelSidebar({
	model,
	provider,
	onProviderChange,
}: {
	model: ModelDetail;
	provider: string | undefined;
	onProviderChange: (provider: string) => void;
}) {
	const providers = useMemo(() => providerEntries(model.inferenceProviderMapping), [model]);
	return (
		<>
			<ProvidersPanel
				model={model}
				providers={providers}
				provider={provider}
				onProviderChange={onProviderChange}
			/>
			<section aria-labelledby="playground-title" className="section sidebar-section">
				<h2 id="playground-title">Playground</h2>
				<Suspense fallback={<Loading label="Loading the playground" />}>
					<Playground model={model} providers={providers} provider={provider} />
				</Suspense>
			</section>
		</>
	);
}
