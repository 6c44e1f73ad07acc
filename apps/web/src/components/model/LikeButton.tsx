import { useEffect, useState } from "react";
import { modelLikers, setModelLiked } from "../../api/community";
import type { ApiOptions } from "../../api/http";
import { formatCount, formatExactCount } from "../../view/format";

/**
 * A repository's likes, on model and dataset pages alike (`api.repoType` says which): a toggle button for
 * a signed-in user (pressed when they like it), the count alone for everyone else.
 */
export function LikeButton({
	repoId,
	likes,
	user,
	api,
}: {
	repoId: string;
	likes: number;
	user: string | undefined;
	api: ApiOptions;
}) {
	const [count, setCount] = useState(likes);
	const [liked, setLiked] = useState<boolean>();
	const [busy, setBusy] = useState(false);
	const [error, setError] = useState<string>();

	useEffect(() => {
		if (user === undefined) return;
		let live = true;
		modelLikers(repoId, api).then(
			(likers) => live && setLiked(likers.some((liker) => liker.user === user)),
			() => live && setLiked(false),
		);
		return () => {
			live = false;
		};
	}, [repoId, user, api]);

	const label = `${formatExactCount(count)} likes`;
	if (user === undefined || liked === undefined) {
		return (
			<span className="model-likes" title={label}>
				<span aria-hidden="true">♥ </span>
				{formatCount(count)} <span className="visually-hidden">likes</span>
			</span>
		);
	}
	const toggle = async () => {
		setBusy(true);
		setError(undefined);
		try {
			const answer = await setModelLiked(repoId, !liked, api);
			setLiked(answer.liked);
			setCount(answer.likes);
		} catch (failure) {
			setError(failure instanceof Error ? failure.message : String(failure));
		} finally {
			setBusy(false);
		}
	};
	return (
		<>
			<button
				type="button"
				className="btn btn-small like-button"
				aria-pressed={liked}
				disabled={busy}
				title={label}
				onClick={() => void toggle()}
			>
				<span aria-hidden="true">{liked ? "♥" : "♡"} </span>
				{liked ? "Liked" : "Like"} <span className="like-count">{formatCount(count)}</span>
				<span className="visually-hidden"> likes</span>
			</button>
			{error ? (
				<span role="alert" className="like-error">
					{error}
				</span>
			) : null}
		</>
	);
}
