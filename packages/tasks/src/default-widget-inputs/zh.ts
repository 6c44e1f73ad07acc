import type { WidgetExample } from "../libraries/types.js";
import type { WidgetType } from "../pipelines.js";

/** Default widget inputs in Chinese. */
export const MAPPING_ZH = new Map<WidgetType, string[] | WidgetExample[]>([
	["text-classification", ["这家餐厅的服务很周到，菜也很好吃，下次还会再来。"]],
	[
		"token-classification",
		["李明在上海的一家银行工作。", "王芳和她的妹妹下个月要去成都旅游。", "张伟昨天在北京大学听了一场讲座。"],
	],
	[
		"question-answering",
		[
			{
				text: "图书馆周末几点关门？",
				context: "市图书馆工作日早上九点开门，晚上八点关门；周末下午五点关门。",
			},
			{
				text: "长江最终流入哪里？",
				context: "长江是中国最长的河流，全长约六千三百公里，发源于青藏高原，最终流入东海。",
			},
			{
				text: "小王每天怎么去上班？",
				context: "小王住在城东，公司在城西。为了避开堵车，他每天骑自行车去上班，路上大约需要四十分钟。",
			},
		],
	],
	["translation", ["请问去火车站怎么走？", "我们打算明年春天去云南旅行。"]],
	[
		"zero-shot-classification",
		[
			{
				text: "这款手机的电池很耐用，拍照效果也不错。",
				candidate_labels: "科技, 体育, 美食, 政治",
			},
		],
	],
	[
		"summarization",
		[
			"近年来，越来越多的城市居民开始在阳台和屋顶上种植蔬菜和花草。这种城市农业不仅能让人们吃到新鲜的食物，还能在炎热的夏天为建筑降温，并为蜜蜂等昆虫提供栖息地。一些社区还把空地改造成公共菜园，邻居们在这里一起劳动、交流，彼此之间的关系也变得更加亲近。专家认为，城市菜园的规模虽然不大，但对改善居民的生活质量有着积极的作用。",
		],
	],
	[
		"text-generation",
		[
			"从前，在一座高山上，住着一位老人，",
			"今天天气很好，我和朋友决定",
			"学习一门新语言，最重要的是",
			"春天来了，公园里",
			"未来十年，人工智能可能会",
		],
	],
	["fill-mask", ["我每天早上都要喝一杯热<mask>。", "周末我们一起去公园散<mask>吧。"]],
	[
		"sentence-similarity",
		[
			{
				source_sentence: "今天外面下着大雨。",
				sentences: ["外面正在下很大的雨。", "今天阳光明媚。", "我明天要早起上班。"],
			},
		],
	],
]);
