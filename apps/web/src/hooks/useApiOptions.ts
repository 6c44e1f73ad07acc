import { useMemo } from "react";
import { hubTokenFor, useHubSession } from "../account/session";
import { useSettings } from "../settings/store";

/** The hub API options for the current settings: base URL, and the hub token signed in to that hub. */
export function useApiOptions(): { baseUrl: string; token?: string } {
	const { hubUrl } = useSettings();
	const session = useHubSession(hubUrl);
	return useMemo(() => {
		const token = hubTokenFor(hubUrl, session);
		return token ? { baseUrl: hubUrl, token } : { baseUrl: hubUrl };
	}, [hubUrl, session]);
}
