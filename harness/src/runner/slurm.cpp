//===- slurm.cpp - the Slurm backend: sbatch job array plus a merge job ---===//
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <fstream>
#include <thread>

#include "capture.h"
#include "opforge/harness/runner.h"
#include "opforge/support/error.h"

namespace opforge::harness {
namespace fs = std::filesystem;
using detail::capture;

namespace {

std::string quote(const std::string &s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

void write_script(const fs::path &p, const std::string &text) {
  std::ofstream(p) << text;
  fs::permissions(p, fs::perms::owner_all | fs::perms::group_read | fs::perms::others_read);
}

std::string header(const std::string &name, const SlurmOptions &so) {
  std::string h = "#!/bin/bash\n#SBATCH --job-name=" + name + "\n";
  if (!so.partition.empty()) h += "#SBATCH --partition=" + so.partition + "\n";
  for (const auto &a : so.sbatch_args) h += "#SBATCH " + a + "\n";
  return h;
}

std::string sbatch(const std::vector<std::string> &args) {
  std::vector<std::string> argv = {"sbatch", "--parsable"};
  argv.insert(argv.end(), args.begin(), args.end());
  std::string out;
  int st = capture(argv, out);
  if (st != 0)
    throw Error("sbatch failed (exit status " + std::to_string(st) +
                "): " + (out.empty() ? "no message" : out) +
                " (is Slurm reachable? SLURM_CONF, slurmctld, munge)");
  std::string id = out.substr(0, out.find_first_of(";\n"));
  if (id.empty() || id.find_first_not_of("0123456789") != std::string::npos)
    throw Error("sbatch printed no job id: " + out);
  return id;
}

}  // namespace

SlurmSubmission submit_slurm(const Scenario &s, const RunOptions &opts, const SlurmOptions &so) {
  std::vector<SweepPoint> points = expand_sweep(s);
  RunSummary sum;
  std::vector<size_t> todo = points_to_run(points, opts.out, opts, sum);
  SlurmSubmission sub;
  sub.dir = fs::path(opts.out.string() + ".slurm");
  fs::create_directories(sub.dir);
  fs::create_directories(shard_dir(opts.out));
  double timeout_s = opts.timeout_s > 0 ? opts.timeout_s : s.timeout_s;
  long limit_s = std::lround(std::ceil(timeout_s));
  long limit_min = (limit_s + 60 + 59) / 60;  // Slurm's own limit, a minute above ours
  std::string exe = quote(opts.opforge_exe), scen = quote(opts.scenario_file),
              out = quote(opts.out.string()), shards = quote(shard_dir(opts.out).string());

  std::string merge =
      header("opforge-merge-" + s.name, so) +
      "#SBATCH --output=" + (sub.dir / "merge.log").string() + "\n#SBATCH --ntasks=1\n" +
      "# The job succeeds when the results file is written, whatever the points' status\n"
      "# (exit 1); a merge that would replace a more complete file refuses (exit 2).\n" +
      exe + " sweep " + scen + " --merge --out " + out + "\nrc=$?\n[ $rc -le 1 ] && test -f " +
      out + "\n";
  write_script(sub.dir / "merge.sbatch", merge);
  sub.tasks = todo.size();
  if (todo.empty()) {
    sub.merge_job = sbatch({(sub.dir / "merge.sbatch").string()});
    return sub;
  }
  std::string list;
  for (size_t i = 0; i < todo.size(); ++i) list += (i ? "," : "") + std::to_string(todo[i]);
  if (so.max_parallel) list += "%" + std::to_string(so.max_parallel);
  // Each task always leaves a shard and exits 0, so the merge job's
  // dependency is met however the point ends.
  std::string task =
      header("opforge-" + s.name, so) + "#SBATCH --output=" + (sub.dir / "point-%a.log").string() +
      "\n#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n#SBATCH --time=" +
      std::to_string(limit_min) + "\n" +
      "i=$SLURM_ARRAY_TASK_ID\nlog=" + quote((sub.dir).string()) +
      "/point-$i.log\nstart=$(date +%s)\n" + "timeout -s KILL " + std::to_string(limit_s) + " " +
      exe + " sweep-point " + scen + " --index $i --out " + out + "\nrc=$?\n" + "if [ ! -f " +
      shards +
      "/point-$i.h5 ]; then\n"
      "  if [ $rc -eq 137 ] && [ $(( $(date +%s) - start )) -ge " +
      std::to_string(limit_s) + " ]; then st=timeout; why='killed after the per-point timeout of " +
      std::to_string(limit_s) +
      "s'; else st=crashed; why=\"point process exited with status $rc without a result\"; fi\n"
      "  " +
      exe + " sweep-point " + scen + " --index $i --out " + out +
      " --record-failure \"$st\" --reason \"$why\" --log \"$log\"\n"
      "fi\nexit 0\n";
  write_script(sub.dir / "points.sbatch", task);
  sub.array_job = sbatch({"--array=" + list, (sub.dir / "points.sbatch").string()});
  sub.merge_job =
      sbatch({"--dependency=afterany:" + sub.array_job, (sub.dir / "merge.sbatch").string()});
  return sub;
}

std::string wait_for_slurm_job(const std::string &job, double timeout_s, std::ostream *progress) {
  auto t0 = std::chrono::steady_clock::now();
  int unknown = 0;
  while (true) {
    std::string out;
    int st = capture({"squeue", "--states=all", "-h", "-j", job, "-o", "%T|%r"}, out);
    if (st != 0 || out.empty()) {
      if (++unknown > 50)
        throw Error("squeue no longer knows job " + job + (out.empty() ? "" : ": " + out));
    } else {
      unknown = 0;
      std::string state = out.substr(0, out.find('|'));
      std::string reason = out.find('|') == std::string::npos ? "" : out.substr(out.find('|') + 1);
      if (progress) *progress << "\r[slurm] job " << job << " " << state << "   " << std::flush;
      if (state == "PENDING" && reason.find("DependencyNeverSatisfied") != std::string::npos)
        throw Error("Slurm job " + job + " can never start: DependencyNeverSatisfied");
      if (state == "COMPLETED" || state == "FAILED" || state == "CANCELLED" || state == "TIMEOUT" ||
          state == "NODE_FAIL" || state == "OUT_OF_MEMORY" || state == "BOOT_FAIL" ||
          state == "DEADLINE" || state == "PREEMPTED") {
        if (progress) *progress << "\n";
        return state;
      }
    }
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() > timeout_s)
      throw Error("Slurm job " + job + " did not finish within " + std::to_string(int(timeout_s)) +
                  " s");
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
}

}  // namespace opforge::harness
