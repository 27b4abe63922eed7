/// Toolkit identity recorded in every manifest and report.
public enum ResonanceLabInfo {
    public static let version = "0.1.0"
}
