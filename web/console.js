// Shows whether the daemon answers /healthz, and its version.
const status = document.getElementById("status");
try {
  const response = await fetch("/healthz");
  const body = await response.json();
  status.textContent = body.ok ? `Running — homed ${body.version}` : "The daemon reports a problem.";
  status.dataset.state = body.ok ? "ok" : "error";
} catch (error) {
  status.textContent = `Cannot reach the daemon: ${error.message}`;
  status.dataset.state = "error";
}
