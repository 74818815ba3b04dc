export { loadJieba, segment, segmentForSearch } from "./jieba.ts";
