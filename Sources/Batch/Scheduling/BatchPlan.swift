import Foundation
import SystemSupport

/// A batch's input and output, opened and checked before any browser starts: the URL list, how
/// many entries it has (when it is a file), the output file (locked), and what an earlier run
/// recorded in it.
///
/// Without `resume`, an output file that already holds something is refused rather than
/// overwritten: it may be hours of results. With `resume`, the file is read (``ResumeLedger``), a
/// torn last line is cut off, and the input is checked against it, entry by entry, before
/// anything runs (for standard input, as it streams).
///
/// ```swift
/// let plan = try BatchPlan.prepare(inputPath: "urls.txt", outputPath: "results.jsonl", resume: true)
/// plan.total                  // entries in urls.txt
/// plan.ledger.recordCount     // already recorded
/// ```
public struct BatchPlan {
    /// The input.
    public let reader: InputReader
    /// How records are written.
    public let outputFormat: OutputFormat
    /// The number of entries in the list, when it is a file.
    public let total: Int?
    /// What the output already records.
    public let ledger: ResumeLedger
    /// Where records go.
    public let log: ResultLog

    /// Opens and checks the input and the output.
    ///
    /// - Parameters:
    ///   - inputPath: The input; `nil` or `-` for standard input.
    ///   - outputPath: The records' file; `nil` for standard output.
    ///   - resume: Whether to continue what `outputPath` records.
    ///   - inputFormat: How the input is laid out; `nil`: as its name says (``InputFormat/inferred(fromPath:)``).
    ///   - outputFormat: How records are written; `nil`: as the output's name says
    ///     (``OutputFormat/inferred(fromPath:)``).
    /// - Throws: ``BatchSetupError``.
    public static func prepare(inputPath: String?, outputPath: String?, resume: Bool, inputFormat: InputFormat? = nil,
                               outputFormat: OutputFormat? = nil) throws(BatchSetupError) -> BatchPlan {
        let inputFormat = inputFormat ?? InputFormat.inferred(fromPath: inputPath == "-" ? nil : inputPath)
        let outputFormat = outputFormat ?? OutputFormat.inferred(fromPath: outputPath)
        guard !resume || outputPath != nil else { throw .resumeNeedsOutput }
        let log: ResultLog
        var ledger = ResumeLedger.empty
        if let outputPath {
            var status = stat()
            if !resume, stat(outputPath, &status) == 0, status.st_size > 0 {
                throw .outputExists(path: outputPath)
            }
            do {
                log = try ResultLog(path: outputPath)
            } catch {
                throw .output(error)
            }
            do {
                ledger = try ResumeLedger.read(path: outputPath, format: outputFormat)
                if ledger.hasTornLastLine { try log.truncate(to: ledger.validLength) }
            } catch let error as ResumeError {
                log.close()
                throw .resume(error)
            } catch let error as ResultLogError {
                log.close()
                throw .output(error)
            } catch {
                log.close()
                throw .output(.unwritable(name: outputPath, reason: "\(error)"))
            }
        } else {
            log = ResultLog()
        }
        guard let inputPath, inputPath != "-" else {
            return BatchPlan(reader: InputReader(descriptor: STDIN_FILENO, name: "standard input", format: inputFormat), outputFormat: outputFormat,
                             total: nil, ledger: ledger, log: log)
        }
        let total: Int
        let reader: InputReader
        do {
            total = try survey(path: inputPath, format: inputFormat, ledger: ledger)
        } catch {
            log.close()
            throw error
        }
        do {
            reader = try InputReader(path: inputPath, format: inputFormat)
        } catch {
            log.close()
            throw .input(error)
        }
        return BatchPlan(reader: reader, outputFormat: outputFormat, total: total, ledger: ledger, log: log)
    }

    /// Counts the entries of the file at `path` and checks each one the ledger records.
    static func survey(path: String, format: InputFormat, ledger: ResumeLedger) throws(BatchSetupError) -> Int {
        do {
            let reader = try InputReader(path: path, format: format)
            var count = 0
            while let entry = try reader.nextEntry() {
                if !ledger.matches(entry) { throw BatchSetupError.inputChanged(line: entry.line, index: entry.index) }
                count += 1
            }
            return count
        } catch let error as BatchSetupError {
            throw error
        } catch let error as BatchInputError {
            throw .input(error)
        } catch {
            throw .input(.unreadable(name: path, reason: "\(error)"))
        }
    }
}

/// Why a batch could not start.
public enum BatchSetupError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `--resume` without `--output`.
    case resumeNeedsOutput
    /// The output file holds records already and `--resume` was not given.
    case outputExists(path: String)
    /// The URL list cannot be read.
    case input(BatchInputError)
    /// The output file cannot be written.
    case output(ResultLogError)
    /// The output file cannot be resumed.
    case resume(ResumeError)
    /// The URL list is not the one the output was made from.
    case inputChanged(line: Int, index: Int)
    /// A local Safari: it allows one automation session at a time.
    case safariRefused
    /// `--attach`: a batch does not take over the user's own browser.
    case attachRefused
    /// `--headed` or `--profile`: a batch runs hidden browsers with throwaway profiles.
    case visibleOrKeptBrowserRefused
    /// `--capabilities` is not a JSON object.
    case capabilitiesNotAnObject

    public var description: String {
        switch self {
        case .resumeNeedsOutput:
            "--resume continues an --output file; give one"
        case let .outputExists(path):
            "\(path) already holds results; add --resume to continue it, or choose another --output"
        case let .input(error):
            error.description
        case let .output(error):
            error.description
        case let .resume(error):
            error.description
        case let .inputChanged(line, index):
            BatchFailure.inputChanged(line: line, index: index).description
        case .safariRefused:
            """
            batch runs on webkit, chromium or a --webdriver-url endpoint: Safari allows one automation session at a time; \
            start 'safaridriver --port 4444' and use --webdriver-url http://127.0.0.1:4444 --jobs 1
            """
        case .attachRefused:
            """
            batch does not attach to your browser: it drives several sessions at once, replaces a session whose page \
            failed and stops a browser process that uses too much memory, which would take over and close your own tabs; \
            run one page in your browser with 'pagescript run URL --attach HOST:PORT'
            """
        case .visibleOrKeptBrowserRefused:
            "batch runs its browsers hidden with throwaway profiles; --headed and --profile are for run, edit and browse"
        case .capabilitiesNotAnObject:
            "--capabilities must be a JSON object, such as '{\"platformName\":\"linux\"}'"
        }
    }
}
