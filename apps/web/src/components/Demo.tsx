import type { TaskDemoEntry } from "@modelhub/tasks";
import { demoAssetUrl } from "../api/catalogue";
import { useSettings } from "../settings/store";
import { chartBars, tokenSegments, tokenTypes } from "../view/demo";
import { formatScore } from "../view/format";
import { TableScroll } from "./TableScroll";

/** A horizontal bar chart of labels and scores. */
export function Bars({ data, caption }: { data: Array<{ label: string; score: number }>; caption?: string }) {
	const bars = chartBars(data);
	return (
		<figure className="bars" data-kind="chart">
			{caption ? <figcaption className="demo-label">{caption}</figcaption> : null}
			<ul className="bar-list">
				{bars.map((bar, index) => (
					<li key={`${bar.label}-${index}`} className="bar-row">
						<span className="bar-label">{bar.label}</span>
						<span className="bar-track" aria-hidden="true">
							<span className="bar-fill" style={{ width: `${bar.percent}%` }} />
						</span>
						<span className="bar-value">{formatScore(bar.score)}</span>
					</li>
				))}
			</ul>
		</figure>
	);
}

export function TokenText({
	text,
	tokens,
	caption,
}: {
	text: string;
	tokens: Array<{ type: string; start: number; end: number }>;
	caption?: string;
}) {
	const types = tokenTypes(tokens);
	const slot = (type: string) => types.indexOf(type) % 6;
	return (
		<figure className="token-text" data-kind="text-with-tokens">
			{caption ? <figcaption className="demo-label">{caption}</figcaption> : null}
			<p className="token-body">
				{tokenSegments(text, tokens).map((segment, index) =>
					segment.type ? (
						<mark key={index} className={`token token-slot-${slot(segment.type)}`}>
							{segment.text}
							<span className="token-type">
								<span className="visually-hidden"> (</span>
								{segment.type}
								<span className="visually-hidden">)</span>
							</span>
						</mark>
					) : (
						<span key={index}>{segment.text}</span>
					),
				)}
			</p>
		</figure>
	);
}

function mediaLabel(filename: string, fallback: string): string {
	const base = filename.replace(/\.[a-z0-9]+$/i, "").replace(/[-_]+/g, " ");
	return base ? `${fallback}: ${base}` : fallback;
}

export function DemoEntry({ entry, role }: { entry: TaskDemoEntry; role: "Input" | "Output" }) {
	const { hubUrl } = useSettings();
	switch (entry.type) {
		case "img":
			return (
				<figure className="demo-media" data-kind="img">
					<img
						src={demoAssetUrl(entry.filename, hubUrl)}
						alt={mediaLabel(entry.filename, `${role} image`)}
						loading="lazy"
						decoding="async"
					/>
				</figure>
			);
		case "audio":
			return (
				<figure className="demo-media" data-kind="audio">
					<figcaption className="demo-label">{role} audio</figcaption>
					<audio controls preload="none" src={demoAssetUrl(entry.filename, hubUrl)}>
						<a href={demoAssetUrl(entry.filename, hubUrl)}>Download the audio</a>
					</audio>
				</figure>
			);
		case "text":
			return (
				<figure className="demo-text" data-kind="text">
					<figcaption className="demo-label">{entry.label}</figcaption>
					<p>{entry.content}</p>
				</figure>
			);
		case "chart":
			return <Bars data={entry.data} caption={role === "Output" ? "Scores" : "Input scores"} />;
		case "tabular": {
			const [header = [], ...rows] = entry.table;
			return (
				<figure className="demo-table" data-kind="tabular">
					<TableScroll label={`${role} table`}>
						<table className="table">
							<thead>
								<tr>
									{header.map((cell, index) => (
										<th key={index} scope="col">
											{cell}
										</th>
									))}
								</tr>
							</thead>
							<tbody>
								{rows.map((row, rowIndex) => (
									<tr key={rowIndex}>
										{row.map((cell, index) => (
											<td key={index}>{cell}</td>
										))}
									</tr>
								))}
							</tbody>
						</table>
					</TableScroll>
				</figure>
			);
		}
		case "text-with-tokens":
			return <TokenText text={entry.text} tokens={entry.tokens} caption={`${role} with tagged tokens`} />;
	}
}
