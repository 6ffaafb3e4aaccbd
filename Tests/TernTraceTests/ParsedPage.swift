import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// The report page read back with a real XML parser (libxml2 via Foundation):
/// parsing only succeeds if every tag is closed and nested correctly, every
/// attribute is quoted and every entity is valid.
final class ParsedPage: NSObject, XMLParserDelegate {
    /// One element: its name, attributes, and all text inside it (entities decoded).
    struct Element {
        var name: String
        var attributes: [String: String]
        var text: String
    }

    private(set) var elements: [Element] = []
    private var open: [Int] = []
    private(set) var error: String?

    /// Parses `html`; check `error` before trusting `elements`.
    init(_ html: String) {
        super.init()
        let parser = XMLParser(data: Data(html.utf8))
        parser.delegate = self
        if !parser.parse() {
            error = parser.parserError.map { "\($0) at line \(parser.lineNumber)" } ?? "unknown parse error"
        }
        if !open.isEmpty { error = error ?? "unclosed elements at end" }
    }

    /// Elements named `name`, in document order.
    func all(_ name: String) -> [Element] { elements.filter { $0.name == name } }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
        open.append(elements.count)
        elements.append(Element(name: elementName, attributes: attributeDict, text: ""))
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?) {
        _ = open.popLast()
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        for index in open { elements[index].text += string }
    }
}
