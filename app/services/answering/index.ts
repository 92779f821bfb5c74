// The answering domain's public surface for any code, the browser's included (no server-only module).
export { COMMENT_LIMIT, EMPTY, NOT_RELEVANT, TEXT_ANSWER_LIMIT, answerToken, characters } from "./answering";
export { COMPARISON_PARAMS, SCALE_ASPECTS, SCALE_LEVELS, readScaleQuery } from "./independence-scale";
