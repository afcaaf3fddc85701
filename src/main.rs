fn main() {
    std::process::exit(jungle::cli::run());
}
