//! `npuzzle serve`: the web page and JSON API on a local port.

use std::path::Path;
use std::time::Duration;

use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use npuzzle::{Ceilings, Field, Request, Tables};

use crate::exit::Outcome;

/// Serve the web page and its JSON API.
#[derive(Args, Debug)]
pub struct ServeArgs {
    /// Port to listen on (0 picks a free one and prints it).
    #[arg(
        long,
        short = 'p',
        default_value_t = 8080,
        allow_negative_numbers = true
    )]
    pub port: u16,
    /// Address to listen on. The default serves this machine only; 0.0.0.0 opens the page
    /// to the network (a classroom, say).
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// Longest a search may run, in seconds, at most 3600 (requests may ask for less).
    #[arg(
        long,
        value_name = "SECONDS",
        default_value_t = 10.0,
        allow_negative_numbers = true
    )]
    pub time_limit: f64,
    /// Searches run at once (default: the number of cores, at least 2); more requests wait.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub max_concurrent: Option<usize>,
    /// Threads answering HTTP requests (default: the number of cores). No search runs on
    /// them: small ones get a short attempt on a pool of their own, long ones the
    /// `--max-concurrent` search pool. Fewer threads than cores leaves the rest to other
    /// work on the machine, such as a load tool.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub threads: Option<usize>,
    /// Write tables built for requests to the cache directory (default: requests only read
    /// the cache; build tables ahead with `npuzzle pdb build`).
    #[arg(long)]
    pub save_tables: bool,
    /// Let pages served from ORIGIN (e.g. http://localhost:3000) call the API; repeat for
    /// several, `*` for any. By default only the server's own page may: a page elsewhere
    /// could otherwise make a visitor's browser run searches here.
    #[arg(long, value_name = "ORIGIN")]
    pub allow_origin: Vec<String>,
    /// Serve requests that name this host (e.g. the machine's name in a classroom); repeat
    /// for several. By default only localhost, loopback addresses and the address listened
    /// on are served (which stops DNS rebinding).
    #[arg(long, value_name = "NAME")]
    pub allow_host: Vec<String>,
    /// Longest a client may take to send a request's head or body, in seconds (0.01 to
    /// 3600).
    #[arg(
        long,
        value_name = "SECONDS",
        default_value_t = 10.0,
        allow_negative_numbers = true
    )]
    pub request_timeout: f64,
}

/// Longest `--time-limit` a server may give its searches.
const MAX_TIME_LIMIT: Duration = Duration::from_secs(3600);

/// Most searches `--max-concurrent` may allow at once.
const MAX_CONCURRENT: usize = 1024;

pub fn run(args: ServeArgs, tables: &Tables) -> Result<Outcome> {
    let mut config = npuzzle_web::Config {
        save_tables: args.save_tables,
        ..npuzzle_web::Config::default()
    };
    // The server holds its own tables under its own policy, reading the same cache.
    let cache_dir = tables.cache_dir().map(Path::to_path_buf);
    // The server's own ceiling is an hour; the words are the core's, as for `solve`.
    let request = Request {
        time_limit: Some(args.time_limit),
        ..Request::default()
    };
    let ceilings = Ceilings {
        time: MAX_TIME_LIMIT,
        ..Ceilings::DEFAULT
    };
    let (_, limits) = request
        .check(&ceilings)
        .map_err(|e| anyhow!(e.message(Field::cli_name)))?;
    config.time_limit = limits.time.expect("a time limit was given");
    match args.max_concurrent {
        Some(n) if (1..=MAX_CONCURRENT).contains(&n) => config.max_concurrent_solves = n,
        // A semaphore holds at most `usize::MAX >> 3` permits and panics beyond; and each
        // search holds a thread and up to its memory limit, so thousands are already absurd.
        Some(n) => bail!("--max-concurrent must be between 1 and {MAX_CONCURRENT}, got {n}"),
        None => {}
    }
    if !(args.request_timeout.is_finite()
        && args.request_timeout >= 0.01
        && args.request_timeout <= 3600.0)
    {
        bail!(
            "--request-timeout must be between 0.01 and 3600 seconds, got {}",
            args.request_timeout
        );
    }
    config.header_timeout = Duration::from_secs_f64(args.request_timeout);
    config.body_timeout = config.header_timeout;
    for origin in &args.allow_origin {
        let origin = origin.trim_end_matches('/');
        if origin != "*" && !(origin.starts_with("http://") || origin.starts_with("https://")) {
            bail!("--allow-origin takes an origin such as http://localhost:3000, got {origin}");
        }
        config.allowed_origins.push(origin.to_string());
    }
    config.allowed_hosts = args.allow_host.clone();
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
