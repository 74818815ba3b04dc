export { loadJieba, segment, segmentForSearch } from "./jieba.ts";
export { searchWords } from "./words.ts";
export { cjkBigrams, queryBigrams, queryTrigrams } from "./grams.ts";
export { countTokens, countTokensYielding, loadTokenizer, TOKENIZER, COUNTED_PIECES } from "./tokens.ts";
export { textPieces, mapPieces, mapYielding, yieldIfLong, PIECE_CHARS } from "./pieces.ts";
export { analysedPart, queryPart, ANALYSED_CHARS, QUERY_CHARS } from "./limits.ts";
export { TfidfCorpus, sparseCosine, type SparseVector } from "./tfidf.ts";
export { contentText, topicWords, FUNCTION_WORD_TAGS } from "./content.ts";
export { maskSecrets, describeMasked, mergeMasked, passesLuhn, type MaskedSecret, type MaskResult } from "./secrets.ts";
