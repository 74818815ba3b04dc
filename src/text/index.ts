export { loadJieba, segment, segmentForSearch } from "./jieba.ts";
export { searchWords } from "./words.ts";
export { cjkBigrams, queryBigrams, queryTrigrams } from "./grams.ts";
export { countTokens, loadTokenizer, TOKENIZER } from "./tokens.ts";
export { TfidfCorpus, sparseCosine, type SparseVector } from "./tfidf.ts";
export { contentText, FUNCTION_WORD_TAGS } from "./content.ts";
