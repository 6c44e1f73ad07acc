import type { WidgetExample } from "../libraries/types.js";
import type { WidgetType } from "../pipelines.js";

/** Default widget inputs in German. */
export const MAPPING_DE = new Map<WidgetType, string[] | WidgetExample[]>([
	[
		"question-answering",
		[
			{
				text: "Wann fährt der letzte Zug nach Hamburg?",
				context:
					"Der erste Zug nach Hamburg fährt um 5:45 Uhr ab, der letzte um 22:10 Uhr. Am Wochenende gibt es zusätzliche Verbindungen.",
			},
			{
				text: "Wie lange muss der Kuchen backen?",
				context: "Den Teig in eine gefettete Form geben und den Kuchen bei 180 Grad etwa 45 Minuten backen.",
			},
		],
	],
	[
		"sentence-similarity",
		[
			{
				source_sentence: "Das Wetter ist heute wirklich schön.",
				sentences: [
					"Heute scheint die Sonne und es ist warm.",
					"Ich muss morgen früh zur Arbeit.",
					"Gestern hat es den ganzen Tag geregnet.",
				],
			},
		],
	],
]);
