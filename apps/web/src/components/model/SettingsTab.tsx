import { useState } from "react";
import { setModelPrivate } from "../../api/account";
import { splitModelId } from "../../view/model";
import { useRepoType } from "../../hooks/useRepoType";
import type { GatedSetting } from "@modelhub/hub/api";
import { GatedSettings } from "./GatedSettings";
import { DeleteSettings } from "./DeleteSettings";
import { MoveSettings } from "./MoveSettings";

/**
 * The owner's settings of a model or dataset: its visibility, gated access, its name and namespace, and
 * its deletion.
 */
export function SettingsTab({
	modelId,
	isPrivate,
	gated,
	api,
	onChange,
}: {
	modelId: string;
	isPrivate: boolean;
	/** The gate's mode; the gated-access section shows only when given (models and datasets give it). */
	gated?: GatedSetting | undefined;
	api: { baseUrl: string; token?: string };
	onChange: (isPrivate: boolean) => void;
}) {
	const [gatedNow, setGatedNow] = useState(gated);
	const [saving, setSaving] = useState(false);
	const [message, setMessage] = useState<string>();
	const [error, setError] = useState<string>();
	const { namespace } = splitModelId(modelId);
	const what = useRepoType();

	const toggle = async () => {
		setSaving(true);
		setMessage(undefined);
		setError(undefined);
		try {
			const result = await setModelPrivate(modelId, !isPrivate, api);
			onChange(result.private);
			setMessage(
				result.private
					? `This ${what} is now private: only its owners can see it.`
					: `This ${what} is now public: anyone can see and download it.`,
			);
		} catch (failure) {
			setError(failure instanceof Error ? failure.message : String(failure));
		} finally {
			setSaving(false);
		}
	};

	return (
		<div className="settings-tab">
			<section aria-labelledby="visibility-title" className="settings-section">
				<h2 id="visibility-title">Visibility</h2>
				<p>
					{isPrivate ? (
						<>
							This {what} is <strong>private</strong>: only you
							{namespace ? ` and the members of ${namespace}` : ""} can see it, its files and its page.
						</>
					) : (
						<>
							This {what} is <strong>public</strong>: anyone can see it and download its files.
						</>
					)}
				</p>
				<button type="button" className="btn" disabled={saving} onClick={() => void toggle()}>
					{saving ? "Saving…" : isPrivate ? "Make public" : "Make private"}
				</button>
				<p role="status" aria-live="polite" className="settings-feedback">
					{message}
				</p>
				{error ? (
					<div className="notice notice-error" role="alert">
						<strong>Could not change the visibility</strong>
						<div>{error}</div>
					</div>
				) : null}
			</section>
			{gatedNow === undefined ? null : (
				<GatedSettings modelId={modelId} gated={gatedNow} api={api} onChange={setGatedNow} />
			)}
			<MoveSettings modelId={modelId} api={api} />
			<DeleteSettings modelId={modelId} api={api} />
		</div>
	);
}
