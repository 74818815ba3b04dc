/** Known OpenAI-compatible providers: where they live and a sensible first model. */
export type ProviderPreset = {
  id: string;
  name: string;
  baseUrl: string;
  defaultModel: string;
  /** Whether the provider needs an API key (local servers usually do not). */
  needsKey: boolean;
};

export const PROVIDER_PRESETS: readonly ProviderPreset[] = [
  { id: "deepseek", name: "DeepSeek", baseUrl: "https://api.deepseek.com/v1", defaultModel: "deepseek-chat", needsKey: true },
  { id: "openai", name: "OpenAI", baseUrl: "https://api.openai.com/v1", defaultModel: "gpt-4o-mini", needsKey: true },
  { id: "ollama", name: "Ollama (local)", baseUrl: "http://127.0.0.1:11434/v1", defaultModel: "qwen2.5:7b", needsKey: false },
  { id: "vllm", name: "vLLM (local)", baseUrl: "http://127.0.0.1:8000/v1", defaultModel: "Qwen/Qwen2.5-7B-Instruct", needsKey: false },
  { id: "siliconflow", name: "SiliconFlow", baseUrl: "https://api.siliconflow.cn/v1", defaultModel: "deepseek-ai/DeepSeek-V3", needsKey: true },
  { id: "openrouter", name: "OpenRouter", baseUrl: "https://openrouter.ai/api/v1", defaultModel: "deepseek/deepseek-chat", needsKey: true },
];

export function presetById(id: string): ProviderPreset | undefined {
  return PROVIDER_PRESETS.find((p) => p.id === id);
}
