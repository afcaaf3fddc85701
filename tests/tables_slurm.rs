//! Slurm for real: a one-node cluster from Debian's `slurm-wlm` and `munge` on this
//! machine (munged as user munge with a key of its own, `slurmctld -D` and `slurmd -D`
//! as root, a temporary configuration with state, spool and logs in a temporary
//! folder), the array script of docs/tablebases.md submitted as written but for 3
//! animals in 4 tasks, and the tables it leaves checked byte for byte against the
//! in-memory build, with the manifest.
//!
//! SKIPPED (with the reason) where Slurm cannot start: not root, or the packages
//! missing (`.ci/run` installs them; under CI, `CI` set, missing packages fail). Every
//! daemon and job process is stopped on every way out (`Cluster`'s drop).

mod tables_common;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tables_common::*;

const DAEMONS: [&str; 3] = [
    "/usr/sbin/munged",
    "/usr/sbin/slurmctld",
    "/usr/sbin/slurmd",
];
const CLIENTS: [&str; 4] = ["sbatch", "squeue", "scontrol", "runuser"];

/// How long the array may take (it takes about 15 s).
const DEADLINE: Duration = Duration::from_secs(120);

/// The first ```sh block after `marker` in docs/tablebases.md.
fn docs_block(marker: &str) -> String {
    let doc = include_str!("../docs/tablebases.md");
    let after = &doc[doc.find(marker).expect("marker in the docs")..];
    let start = after.find("```sh\n").expect("a sh block") + "```sh\n".len();
    let end = after[start..].find("```").expect("closed block");
    after[start..start + end].to_string()
}

fn on_path(name: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|p| std::env::split_paths(&p).any(|d| d.join(name).is_file()))
}

/// Why Slurm cannot start here, if it cannot.
fn cannot_start() -> Option<String> {
    let uid = Command::new("id").arg("-u").output().ok()?;
    if String::from_utf8_lossy(&uid.stdout).trim() != "0" {
        return Some("not root (slurmd and munged's setup need root)".into());
    }
    let missing: Vec<&str> = DAEMONS
        .iter()
        .copied()
        .filter(|d| !Path::new(d).is_file())
        .chain(CLIENTS.iter().copied().filter(|c| !on_path(c)))
        .collect();
    if !missing.is_empty() {
        let why = format!(
            "missing {} (apt-get install slurm-wlm munge)",
            missing.join(", ")
        );
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must install them: {why}"
        );
        return Some(why);
    }
    None
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// The cluster's daemons, each the leader of its own process group; dropping it
/// stops them, the job processes they started, and removes the folder.
struct Cluster {
    dir: PathBuf,
    conf: PathBuf,
    daemons: Vec<Child>,
}

impl Cluster {
    fn start(dir: &Path) -> Cluster {
        let mut cluster = Cluster {
            dir: dir.to_path_buf(),
            conf: dir.join("slurm.conf"),
            daemons: Vec::new(),
        };
        let munge = dir.join("munge");
        for d in ["munge", "state", "spool", "logs"] {
            std::fs::create_dir_all(dir.join(d)).unwrap();
        }
        let sh = |script: &str| {
            let ok = Command::new("sh").arg("-c").arg(script).status().unwrap();
            assert!(ok.success(), "{script}");
        };
        // A key of its own; munged checks its files: the key the daemon's own and
        // unreadable to others, the socket's folder open to all.
        sh(&format!(
            "head -c 1024 /dev/urandom > {m}/munge.key && chmod 755 {d} {m} && chown -R munge:munge {m} && chmod 400 {m}/munge.key",
            d = dir.display(),
            m = munge.display()
        ));
        let socket = munge.join("munge.socket");
        cluster.spawn(
            "munged",
            Command::new("runuser")
                .args(["-u", "munge", "--", DAEMONS[0], "-F"])
                .args(
                    ["key-file", "pid-file", "log-file", "seed-file"]
                        .iter()
                        .zip(["munge.key", "munged.pid", "munged.log", "munged.seed"])
                        .map(|(opt, f)| format!("--{opt}={}", munge.join(f).display()))
                        .chain([format!("--socket={}", socket.display())]),
                ),
        );
        let host = String::from_utf8_lossy(&Command::new("hostname").output().unwrap().stdout)
            .trim()
            .to_string();
        let mem_mb = std::fs::read_to_string("/proc/meminfo")
            .ok()
            .and_then(|m| {
                m.lines()
                    .find(|l| l.starts_with("MemTotal:"))
                    .and_then(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok())
            })
            .map_or(1024, |kb| kb / 1024 * 9 / 10);
        let d = dir.display();
        let conf = format!(
            "ClusterName=jungletest\n\
             SlurmctldHost={host}(127.0.0.1)\n\
             SlurmUser=root\nSlurmdUser=root\n\
             SlurmctldPort={}\nSlurmdPort={}\n\
             AuthType=auth/munge\nCredType=cred/munge\nAuthInfo=socket={}\n\
             StateSaveLocation={d}/state\nSlurmdSpoolDir={d}/spool\n\
             SlurmctldPidFile={d}/slurmctld.pid\nSlurmdPidFile={d}/slurmd.pid\n\
             SlurmctldLogFile={d}/slurmctld.log\nSlurmdLogFile={d}/slurmd.log\n\
             ProctrackType=proctrack/linuxproc\nTaskPlugin=task/none\n\
             SelectType=select/cons_tres\nSelectTypeParameters=CR_CPU\n\
             SchedulerType=sched/builtin\nMpiDefault=none\nReturnToService=2\n\
             JobAcctGatherType=jobacct_gather/none\n\
             AccountingStorageType=accounting_storage/none\n\
             SlurmdParameters=config_overrides\n\
             NodeName={host} NodeAddr=127.0.0.1 CPUs=2 RealMemory={mem_mb} State=UNKNOWN\n\
             PartitionName=test Nodes={host} Default=YES MaxTime=INFINITE State=UP\n",
            free_port(),
            free_port(),
            socket.display()
        );
        std::fs::write(&cluster.conf, conf).unwrap();
        // munged takes a moment to make its socket.
        cluster.wait_for("munged's socket", || socket.exists());
        for name in ["slurmctld", "slurmd"] {
            let conf = cluster.conf.clone();
            cluster.spawn(
                name,
                Command::new(format!("/usr/sbin/{name}"))
                    .arg("-D")
                    .arg("-f")
                    .arg(&conf),
            );
        }
        cluster.wait_for("the node to be idle", || {
            cluster
                .client("sinfo", &["-h", "-o", "%t"])
                .is_some_and(|s| s.trim() == "idle")
        });
        cluster
    }

    fn spawn(&mut self, name: &str, cmd: &mut Command) {
        use std::os::unix::process::CommandExt;
        let log = std::fs::File::create(self.dir.join(format!("{name}.out"))).unwrap();
        let child = cmd
            .env("SLURM_CONF", &self.conf)
            .current_dir(&self.dir)
            .stdin(Stdio::null())
            .stdout(log.try_clone().unwrap())
            .stderr(log)
            .process_group(0)
            .spawn()
            .unwrap_or_else(|e| panic!("{name} does not start: {e}"));
        self.daemons.push(child);
    }

    /// A client command's stdout, if it succeeds.
    fn client(&self, cmd: &str, args: &[&str]) -> Option<String> {
        let out = Command::new(cmd)
            .args(args)
            .env("SLURM_CONF", &self.conf)
            .current_dir(&self.dir)
            .output()
            .ok()?;
        out.status
            .success()
            .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
    }

    fn wait_for(&self, what: &str, mut ready: impl FnMut() -> bool) {
        let start = Instant::now();
        while !ready() {
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "Slurm did not come up ({what}):\n{}",
                self.logs()
            );
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    fn logs(&self) -> String {
        [
            "munged.out",
            "slurmctld.out",
            "slurmctld.log",
            "slurmd.out",
            "slurmd.log",
        ]
        .iter()
        .map(|f| {
            let text = std::fs::read_to_string(self.dir.join(f)).unwrap_or_default();
            let tail: Vec<&str> = text.lines().rev().take(15).collect();
            format!(
                "== {f}\n{}",
                tail.into_iter().rev().collect::<Vec<_>>().join("\n")
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
    }

    /// Processes with this cluster's configuration in their environment: the
    /// daemons, the job steps and the jobs' own processes (none other has it).
    fn processes(&self) -> Vec<u32> {
        let mark = format!("SLURM_CONF={}", self.conf.display());
        let me = std::process::id();
        std::fs::read_dir("/proc")
            .map(|entries| {
                entries
                    .filter_map(Result::ok)
                    .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
                    .filter(|&pid| pid != me)
                    .filter(|pid| {
                        std::fs::read(format!("/proc/{pid}/environ"))
                            .is_ok_and(|env| env.split(|&b| b == 0).any(|v| v == mark.as_bytes()))
                    })
                    .collect()
            })
            .unwrap_or_default()
    }
}

fn kill(signal: &str, target: &str) {
    let _ = Command::new("kill")
        .args([signal, "--", target])
        .stderr(Stdio::null())
        .status();
}

impl Drop for Cluster {
    fn drop(&mut self) {
        for signal in ["-TERM", "-KILL"] {
            for d in &self.daemons {
                kill(signal, &format!("-{}", d.id()));
            }
            for pid in self.processes() {
                kill(signal, &pid.to_string());
            }
            let start = Instant::now();
            while start.elapsed() < Duration::from_secs(5)
                && (self
                    .daemons
                    .iter_mut()
                    .any(|d| d.try_wait().ok().flatten().is_none())
                    || !self.processes().is_empty())
            {
                std::thread::sleep(Duration::from_millis(50));
            }
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

#[test]
fn a_slurm_array_builds_the_tables_of_the_in_memory_build() {
    if let Some(why) = cannot_start() {
        eprintln!("SKIPPED: Slurm cannot start here: {why}");
        return;
    }
    let dir = temp_dir("slurm");
    let cluster = Cluster::start(&dir);
    let submit = docs_block("### The Slurm array");
    assert!(
        submit.contains("sbatch --dependency=afterok:$four tb5.sh"),
        "{submit}"
    );
    let job = docs_block("`tb5.sh`:");
    assert!(job.starts_with("#!/bin/bash\n#SBATCH"), "{job}");
    let localised = job
        .replace("./jungle ", &format!("{} ", jungle()))
        .replace("--animals 5", "--animals 3")
        .replace("--array=0-99", "--array=0-3")
        .replace("--cpus-per-task=2", "--cpus-per-task=1")
        .replace("--mem=8G", "--mem=100M")
        .replace("--time=4:00:00", "--time=5:00");
    assert!(
        !localised.contains("./jungle")
            && localised.contains("--array=0-3")
            && localised.contains("--time=5:00"),
        "{localised}"
    );
    std::fs::write(dir.join("tb5.sh"), &localised).unwrap();
    std::fs::create_dir_all(dir.join("tables")).unwrap();

    let submitted = cluster
        .client("sbatch", &["--parsable", "tb5.sh"])
        .unwrap_or_else(|| panic!("sbatch failed:\n{}", cluster.logs()));
    let job_id = submitted.trim().split(';').next().unwrap().to_string();
    // Poll the queue (sbatch --wait polls with a growing interval).
    let start = Instant::now();
    loop {
        let queued = cluster.client("squeue", &["-h", "-j", &job_id, "-o", "%i %t"]);
        if queued.as_deref().is_some_and(|q| q.trim().is_empty()) {
            break;
        }
        assert!(
            start.elapsed() < DEADLINE,
            "the array did not finish in {DEADLINE:?}: {queued:?}\n{}",
            cluster.logs()
        );
        std::thread::sleep(Duration::from_millis(250));
    }
    let seconds = start.elapsed().as_secs_f64();
    let states = cluster
        .client("scontrol", &["show", "job", &job_id])
        .unwrap_or_default();
    let task_logs: String = (0..4)
        .map(|k| std::fs::read_to_string(dir.join(format!("logs/tb5-{k}.log"))).unwrap_or_default())
        .collect::<Vec<_>>()
        .join("\n");
    assert_eq!(
        states.matches("JobState=COMPLETED").count(),
        4,
        "{states}\n{task_logs}"
    );
    assert_eq!(states.matches("ExitCode=0:0").count(), 4, "{states}");
    for k in 1..=4 {
        assert!(
            task_logs.contains(&format!("shard {k}/4: 56 tables, 56 built")),
            "{task_logs}"
        );
    }
    assert_tables_and_manifest(&dir.join("tables"), 3, &in_memory_files(3));
    eprintln!("the array of 4 tasks ran in {seconds:.1} s");
    drop(cluster);
    assert!(
        !dir.exists(),
        "the cluster's folder is removed when it stops"
    );
}
