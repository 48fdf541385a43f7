//! `npuzzle serve`: the web page and JSON API on a local port.

use std::path::Path;
use std::time::Duration;

use anyhow::{bail, Context, Result};
use clap::Args;
use npuzzle::Tables;

use crate::exit::Outcome;

/// Serve the web page and its JSON API.
#[derive(Args, Debug)]
pub struct ServeArgs {
    /// Port to listen on (0 picks a free one and prints it).
    #[arg(long, short = 'p', default_value_t = 8080)]
    pub port: u16,
    /// Address to listen on. The default serves this machine only; 0.0.0.0 opens the page
    /// to the network (a classroom, say).
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// Longest a search may run, in seconds (requests may ask for less).
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0)]
    pub time_limit: f64,
    /// Searches run at once (default: the number of cores, at least 2); more requests wait.
    #[arg(long, value_name = "N")]
    pub max_concurrent: Option<usize>,
    /// Threads answering HTTP requests (default: the number of cores). Small searches run
    /// on them inline; long ones go to the `--max-concurrent` search pool. Fewer threads
    /// than cores leaves the rest to other work on the machine, such as a load tool.
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// Write tables built for requests to the cache directory (default: requests only read
    /// the cache; build tables ahead with `npuzzle pdb build`).
    #[arg(long)]
    pub save_tables: bool,
}

pub fn run(args: ServeArgs, tables: &Tables) -> Result<Outcome> {
    let mut config = npuzzle_web::Config {
        save_tables: args.save_tables,
        ..npuzzle_web::Config::default()
    };
    // The server holds its own tables under its own policy, reading the same cache.
    let cache_dir = tables.cache_dir().map(Path::to_path_buf);
    if !(args.time_limit.is_finite() && args.time_limit > 0.0 && args.time_limit <= 3600.0) {
        bail!(
            "--time-limit must be above 0 and at most 3600 seconds, got {}",
            args.time_limit
        );
    }
    config.time_limit = Duration::from_secs_f64(args.time_limit);
    match args.max_concurrent {
        Some(0) => bail!("--max-concurrent must be at least 1"),
        Some(n) => config.max_concurrent_solves = n,
        None => {}
    }
    let mut builder = tokio::runtime::Builder::new_multi_thread();
    match args.threads {
        Some(n) if (1..=1024).contains(&n) => {
            builder.worker_threads(n);
        }
        Some(n) => bail!("--threads must be between 1 and 1024, got {n}"),
        None => {}
    }
    let runtime = builder
        .enable_all()
        .build()
        .context("cannot start the server's runtime")?;
    runtime.block_on(async {
        let host = args.host.trim_matches(['[', ']']);
        let listener = tokio::net::TcpListener::bind((host, args.port))
            .await
            .with_context(|| format!("cannot listen on {}:{}", args.host, args.port))?;
        let addr = listener.local_addr()?;
        println!("npuzzle is serving the page at http://{addr}/ (Ctrl-C to stop)");
        if !addr.ip().is_loopback() {
            println!("note: {} is reachable from other machines", addr.ip());
        }
        npuzzle_web::serve(listener, config, cache_dir)
            .await
            .context("the server stopped")
    })?;
    Ok(Outcome::Success)
}
