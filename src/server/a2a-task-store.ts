/**
 * A2A tasks in memory, bounded: the SDK's InMemoryTaskStore keeps every task for the life of the
 * process, so a daemon that another agent calls all day would grow without end. Here tasks live in
 * two generations of the SDK's store: new ones go into the current one, and when it holds
 * `perGeneration` tasks it becomes the previous one (the older previous is dropped). A task is
 * found for at least `perGeneration` tasks after it (GetTask, CancelTask, a follow-up message); at
 * most twice that many are held. ListTasks lists the current generation.
 */
import { InMemoryTaskStore, type ServerCallContext, type TaskStore } from "@a2a-js/sdk/server";

type Task = Parameters<TaskStore["save"]>[0];

/** Tasks per generation: enough for any conversation in progress, small beside the daemon's memory. */
export const TASKS_PER_GENERATION = 1000;

export class BoundedTaskStore implements TaskStore {
  private current = new InMemoryTaskStore();
  private previous = new InMemoryTaskStore();
  private readonly inCurrent = new Set<string>();

  constructor(private readonly perGeneration = TASKS_PER_GENERATION) {}

  async save(task: Task, context: ServerCallContext): Promise<void> {
    if (!this.inCurrent.has(task.id) && this.inCurrent.size >= this.perGeneration) {
      this.previous = this.current;
      this.current = new InMemoryTaskStore();
      this.inCurrent.clear();
    }
    this.inCurrent.add(task.id);
    await this.current.save(task, context);
  }

  async load(taskId: string, context: ServerCallContext): Promise<Task | undefined> {
    return (await this.current.load(taskId, context)) ?? (await this.previous.load(taskId, context));
  }

  list(params: Parameters<TaskStore["list"]>[0], context: ServerCallContext): ReturnType<TaskStore["list"]> {
    return this.current.list(params, context);
  }
}
