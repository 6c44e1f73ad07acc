import { useMemo } from "react";
import type { RepoType } from "@modelhub/tasks/repositories";
import { hubTokenFor, useHubSession } from "../account/session";
import { useSettings } from "../settings/store";
import { useRepoType } from "./useRepoType";

/**
 * The hub API options for the current settings: base URL, the hub token signed in to that hub, and on
 * a dataset page the repository type (src/hooks/useRepoType.ts).
 */
export function useApiOptions(): { baseUrl: string; token?: string; repoType?: RepoType } {
	const { hubUrl } = useSettings();
	const session = useHubSession(hubUrl);
	const repoType = useRepoType();
	const token = hubTokenFor(hubUrl, session);
	// Keyed by the values it carries (not the session object), so it is a precise dependency for the
	// loaders that spread it (`useResource`'s deps are lint-checked).
	return useMemo(
		() => ({
			baseUrl: hubUrl,
			...(token ? { token } : {}),
			...(repoType === "model" ? {} : { repoType }),
		}),
		[hubUrl, token, repoType],
	);
}
