// Preloaded into a command the bench times (node --import bench/exit-usage.mjs …): prints, as its last line on
// stderr, the process's peak resident set size (getrusage's maxrss, KiB) when it exits.
process.on('exit', () => {
  process.stderr.write(`\n${JSON.stringify({ maxRssKiB: process.resourceUsage().maxRSS })}\n`);
});
