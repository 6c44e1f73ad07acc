import type { WidgetExample } from "../libraries/types.js";
import type { WidgetType } from "../pipelines.js";

/** Default widget inputs in Italian. */
export const MAPPING_IT = new Map<WidgetType, string[] | WidgetExample[]>([
	["text-classification", ["Il concerto di ieri sera è stato fantastico, non vedo l'ora di tornarci!"]],
	[
		"token-classification",
		[
			"Marco Bianchi lavora in una libreria di Bologna.",
			"Giulia e suo fratello sono partiti per Napoli con il treno delle otto.",
			"La professoressa Rossi ha presentato il suo libro all'Università di Padova.",
		],
	],
	[
		"question-answering",
		[
			{
				text: "Per quanto tempo deve cuocere la pasta?",
				context:
					"Porta l'acqua a ebollizione, aggiungi il sale e cuoci la pasta per circa dieci minuti prima di scolarla.",
			},
			{
				text: "In che anno è stato aperto il museo?",
				context:
					"Il museo civico è stato aperto nel 1987 e ospita una collezione di ceramiche antiche della regione.",
			},
			{
				text: "Dove abita Luca?",
				context: "Luca è nato a Torino, ma da tre anni abita a Genova, vicino al porto.",
			},
		],
	],
	[
		"translation",
		[
			"Vorrei un biglietto di andata e ritorno per Firenze, per favore.",
			"Domani pomeriggio andiamo al mare con gli amici.",
		],
	],
	[
		"summarization",
		[
			"Negli ultimi anni sempre più giovani scelgono di trasferirsi nei piccoli borghi di montagna, spesso spopolati da decenni. Grazie al lavoro da remoto e a connessioni internet più veloci, è possibile vivere lontano dalle grandi città senza rinunciare alla propria professione. Alcuni comuni offrono case a prezzi simbolici o contributi per ristrutturarle, con l'obiettivo di ripopolare il territorio. Restano però diversi problemi, come la mancanza di scuole, negozi e collegamenti con i servizi sanitari.",
		],
	],
	[
		"text-generation",
		[
			"C'era una volta un gatto che",
			"Il segreto di una buona pizza è",
			"Quando ero bambino, d'estate",
			"La mia stagione preferita è",
			"Per rilassarmi dopo il lavoro,",
		],
	],
	[
		"fill-mask",
		[
			"Ogni mattina faccio colazione con un <mask> e un cornetto.",
			"La domenica pranziamo sempre a casa dei <mask>.",
		],
	],
	[
		"sentence-similarity",
		[
			{
				source_sentence: "Il bambino gioca con il pallone in giardino.",
				sentences: [
					"Un bambino sta giocando a calcio nel cortile.",
					"La nonna sta preparando la cena.",
					"Il treno è in ritardo di dieci minuti.",
				],
			},
		],
	],
]);
