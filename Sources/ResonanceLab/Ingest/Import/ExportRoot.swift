import Foundation

/// The root folder of one person's export as its service writes it (docs/import.md,
/// Folders and subjects): imported without `--subject`, every file under it is one
/// subject named after the folder, and the manifest records it (`exportRoots`).
/// Recognised by the folder's name as the service writes it, or by a file only that
/// export holds at its root (for a folder the person renamed).
enum ExportRoot {
    /// Export root folder names and the export each is.
    static let names: [String: String] = [
        "Takeout": "Google Takeout",
        "DI_CONNECT": "Garmin Connect data export",
        "apple_health_export": "Apple Health export",
        "my_spotify_data": "Spotify data download",
        "Spotify Extended Streaming History": "Spotify extended streaming history",
        "Spotify Account Data": "Spotify account data",
    ]

    /// The export `folder` is the root of, or nil: its name (`names`), else Takeout's
    /// `archive_browser.html`, ListenBrainz's `user.json` or Apple Health's `export.xml`
    /// at its root.
    static func kind(folder: String) -> String? {
        if let kind = names[(folder as NSString).lastPathComponent] { return kind }
        func path(_ file: String) -> String { (folder as NSString).appendingPathComponent(file) }
        if FileManager.default.fileExists(atPath: path("archive_browser.html")) { return "Google Takeout" }
        if ListenBrainz.isUserFile(path: path("user.json")) { return "ListenBrainz export" }
        if AppleHealthXML.matches(path: path("export.xml")) { return "Apple Health export" }
        return nil
    }
}

/// An imported folder recognised as one person's export (`ExportRoot`): its path as the
/// manifest names files, the export, and the subject its files were imported as.
public struct ExportRootInfo: Codable, Equatable, Sendable {
    public var path: String
    public var export: String
    public var subject: String

    public init(path: String, export: String, subject: String) {
        self.path = path; self.export = export; self.subject = subject
    }
}
